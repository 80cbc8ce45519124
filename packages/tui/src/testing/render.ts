/**
 * Rendering helpers for the TUI tests: view-model lines through the real `Lines` component with
 * ink-testing-library, frames without colour codes, and the width check every view must pass.
 */

import { stripVTControlCharacters } from 'node:util';

import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { expect } from 'vitest';

import { Lines } from '../components/Lines.js';
import type { Line } from '../model/lines.js';
import { displayWidth } from '../text/fit.js';

/** The frame a terminal would show for `lines`, colours removed. */
export function renderLines(lines: readonly Line[]): string {
  const app = render(h(Lines, { lines }));
  const frame = stripVTControlCharacters(app.lastFrame() ?? '');
  app.unmount();
  return frame;
}

/** Every line of `frame` fits in `width` columns. */
export function expectFits(frame: string, width: number): void {
  const wide = frame.split('\n').filter((l) => displayWidth(l) > width);
  expect(wide, `lines wider than ${width} columns`).toEqual([]);
}

/** The words of `text`, to check that wrapping kept every one of them, in order. */
export function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}
