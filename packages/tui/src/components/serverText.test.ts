/**
 * Finding 6 of issue #33 (part b): text a server supplies — elicitation messages, field
 * descriptions, URLs, tool names and descriptions, resource titles — never reaches the TUI's
 * frame raw. Escape sequences (OSC 52 clipboard writes, CSI screen clears) are dropped, bidi
 * controls (U+202E) are shown as `?`, and a 100k-character string stays inside the terminal's
 * width and the rows the prompt may take — a single 100k-character token is cut to those rows
 * before it is wrapped — and every detail of `/mcp verbose` takes a few lines at most. Frames are
 * checked as Ink renders them (real Ink, ink-testing-library), before any colour stripping.
 */

import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';

import type { McpServerStatus } from '@mcprt/protocol';

import { verboseView } from '../model/mcpView.js';
import { applyStatusList } from '../model/registrations.js';
import { statusItem } from '../testing/statusItems.js';
import { displayWidth } from '../text/fit.js';
import { ElicitationForm } from './ElicitationForm.js';
import { Lines } from './Lines.js';
import { UrlConsent } from './UrlConsent.js';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const RLO = '\u202e';
const HOSTILE = `before${OSC52}${CLEAR}evil${RLO}gnp.exe after`;
// 100k characters: an unbroken 2k-character token, then words (wrap-ansi is slow on long tokens).
const LONG = `${'A'.repeat(2_000)} ${'word '.repeat(19_600)}`;
const WIDTH = 80;
const ROWS = 20;

/** Ink's colour codes (SGR), the only escapes a frame may hold. */
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

/** The frame with only its colour codes removed: whatever else the terminal would receive. */
function expectClean(raw: string, maxLines = Number.POSITIVE_INFINITY): string {
  const frame = raw.replace(SGR, '');
  expect(frame).not.toContain('\u001b');
  expect(frame).not.toContain('\u009b');
  expect(frame).not.toContain('\u009d');
  expect(frame).not.toContain('\u0007');
  expect(frame).not.toContain(RLO);
  const lines = frame.split('\n');
  expect(lines.filter((l) => displayWidth(l) > WIDTH)).toEqual([]);
  expect(lines.length).toBeLessThanOrEqual(maxLines);
  return frame;
}

function frameOf(element: ReturnType<typeof h>): string {
  const app = render(element);
  const frame = app.lastFrame() ?? '';
  app.unmount();
  return frame;
}

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: `Name${CLEAR}`, description: HOSTILE },
  },
};
const LONG_SCHEMA = {
  type: 'object',
  properties: { note: { type: 'string', title: 'Note', description: LONG } },
};

describe('server text in the TUI frame', () => {
  it('drops escapes and bidi controls from an elicitation message and its fields', () => {
    const frame = expectClean(
      frameOf(
        h(ElicitationForm, {
          scope: 'docs',
          message: HOSTILE,
          requestedSchema: SCHEMA,
          width: WIDTH,
          maxRows: ROWS,
          onAnswer: () => undefined,
        }),
      ),
      ROWS,
    );
    expect(frame).toContain('evil?gnp.exe');
  });

  it('keeps a 100k-character elicitation message inside the width and rows', () => {
    for (const schema of [LONG_SCHEMA, { type: 'object', properties: {} }, 'not a schema'])
      expectClean(
        frameOf(
          h(ElicitationForm, {
            scope: 'docs',
            message: `${LONG}${OSC52}${RLO}`,
            requestedSchema: schema,
            width: WIDTH,
            maxRows: ROWS,
            onAnswer: () => undefined,
          }),
        ),
        ROWS,
      );
  });

  it('cuts a 100k-character single-token message to the rows before wrapping, ending in …', () => {
    // One token of 100,000 characters: wrapped whole it took seconds (some 1,300 lines); cut
    // first to the rows, the frame says so (`N+ more lines`, N at most the rows).
    const token = `${'A'.repeat(100_000)}${OSC52}${RLO}`;
    const frames = [LONG_SCHEMA, { type: 'object', properties: {} }, 'not a schema'].map((schema) =>
      frameOf(
        h(ElicitationForm, {
          scope: 'docs',
          message: token,
          requestedSchema: schema,
          width: WIDTH,
          maxRows: ROWS,
          onAnswer: () => undefined,
        }),
      ),
    );
    frames.push(
      frameOf(
        h(UrlConsent, {
          scope: 'docs',
          message: token,
          url: `https://example.com/${token}`,
          width: WIDTH,
          maxRows: ROWS,
          onAnswer: () => undefined,
        }),
      ),
    );
    for (const raw of frames) {
      const frame = expectClean(raw, ROWS);
      // `N+`: the text was cut before wrapping, and N (the lines wrapped) stays near the rows.
      const more = [...frame.matchAll(/… (\d+)\+ more lines/g)].map((m) => Number(m[1]));
      expect(more.length).toBeGreaterThan(0);
      for (const n of more) expect(n).toBeLessThanOrEqual(ROWS);
      expect(frame).toMatch(/^ {2}A+$/m);
    }
  });

  it('drops escapes and bidi controls from a URL elicitation and bounds a 100k-character URL', () => {
    const hostileUrl = `https://example.com/${OSC52}${CLEAR}${RLO}path`;
    const frame = expectClean(
      frameOf(
        h(UrlConsent, {
          scope: 'docs',
          message: HOSTILE,
          url: hostileUrl,
          width: WIDTH,
          maxRows: ROWS,
          onAnswer: () => undefined,
        }),
      ),
      ROWS,
    );
    expect(frame).toContain('Domain: example.com');
    for (const [message, url] of [
      [LONG, `https://example.com/${'x/'.repeat(50_000)}`],
      [LONG, `javascript:alert(1)${OSC52}${RLO}`],
    ] as const)
      expectClean(
        frameOf(
          h(UrlConsent, {
            scope: 'docs',
            message,
            url,
            width: WIDTH,
            maxRows: ROWS,
            onAnswer: () => undefined,
          }),
        ),
        ROWS,
      );
  });

  it('drops escapes and bidi controls from tool names and resource titles in the mcp verbose view', () => {
    const item: McpServerStatus = {
      ...statusItem('docs', null, { toolNames: [`echo${CLEAR}`, `evil${RLO}gnp.exe`] }),
      resources: [{ name: 'r', title: HOSTILE, uri: `file:///${OSC52}x` }],
      serverInfo: { name: `srv${OSC52}`, version: `1.0${RLO}` },
    } as McpServerStatus;
    const regs = applyStatusList([], [item], 1);
    const frame = expectClean(
      frameOf(
        h(Lines, {
          lines: verboseView(regs, { width: WIDTH, environmentOrder: [], environments: new Map() }),
        }),
      ),
    );
    expect(frame).toContain('evil?gnp.exe');
  });

  it('never shows a tool description, even a hostile 100k-character one, in the mcp verbose view', () => {
    const base = statusItem('docs', null, { toolNames: ['echo'] });
    const item = {
      ...base,
      tools: {
        echo: { ...base.tools['echo']!, title: HOSTILE, description: `${LONG}${OSC52}${RLO}` },
      },
    } as McpServerStatus;
    const regs = applyStatusList([], [item], 1);
    const frame = expectClean(
      frameOf(
        h(Lines, {
          lines: verboseView(regs, { width: WIDTH, environmentOrder: [], environments: new Map() }),
        }),
      ),
      ROWS,
    );
    expect(frame).not.toContain('AAAA');
  });

  it('bounds every server-chosen detail of the mcp verbose view in lines and width', () => {
    // A server choosing everything the verbose view shows: its name and version, 3,000 tool
    // names, resources and templates with 100k-character titles and URIs.
    const huge = `${'T'.repeat(100_000)}${OSC52}${RLO}`;
    const names = Array.from({ length: 3_000 }, (_, i) => `tool_${i}_${'n'.repeat(40)}`);
    const base = statusItem('docs', null, { toolNames: names });
    const item = {
      ...base,
      serverInfo: { name: huge, version: huge },
      resources: Array.from({ length: 200 }, (_, i) => ({
        name: `r${i}`,
        title: huge,
        uri: `https://example.com/${huge}`,
      })),
      resourceTemplates: [{ name: 't', title: huge, uriTemplate: `file:///{x}${huge}` }],
    } as McpServerStatus;
    // And a failed one: a 5,000-line error, and stderr lines of 100k characters.
    const broken = statusItem('broken', null, {
      runtimeStatus: 'failed',
      toolsError: `${'line of an error\n'.repeat(5_000)}${huge}`,
      stderrTail: ['S'.repeat(100_000), `${'S'.repeat(100_000)}${OSC52}`],
    } as Partial<McpServerStatus>);
    const regs = applyStatusList([], [item, broken], 1);
    const frame = expectClean(
      frameOf(
        h(Lines, {
          lines: verboseView(regs, { width: WIDTH, environmentOrder: [], environments: new Map() }),
        }),
      ),
      60,
    );
    // Each detail: its label line, at most two more, and one saying what was left out.
    const lines = frame.split('\n');
    const docs = lines.findIndex((l) => l.startsWith('  • docs'));
    expect(docs).toBeGreaterThanOrEqual(0);
    for (const label of ['Server', 'Tools', 'Resources', 'Resource templates']) {
      const at = lines.findIndex((l, i) => i > docs && l.startsWith(`      ${label}: `));
      expect(at, label).toBeGreaterThanOrEqual(0);
      let end = at + 1;
      while (lines[end]?.startsWith('        ')) end++;
      expect(end - at, label).toBeLessThanOrEqual(3);
      expect(lines[end], label).toMatch(/^ {6}… \d+\+? more lines$/);
    }
    const cause = lines.findIndex((l) => l.startsWith('      Cause: '));
    expect(cause).toBeGreaterThanOrEqual(0);
    expect(lines.slice(cause, cause + 8).at(-1)).toMatch(/^ {6}… \d+\+? more lines$/);
    const stderr = lines.findIndex((l) => l.includes('Stderr (last lines):'));
    expect(stderr).toBeGreaterThanOrEqual(0);
    // Each stderr line: one line of it, then what was left out.
    expect(lines.slice(stderr + 1, stderr + 5).map((l) => l.slice(0, 12))).toEqual([
      '        SSSS',
      '        … 2+',
      '        SSSS',
      '        … 2+',
    ]);
    expect(frame).toContain('tool_0_');
    expect(frame).not.toContain('tool_2999_');
  });
});
