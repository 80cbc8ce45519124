/**
 * Sharing the terminal's rows: Ink redraws everything below the printed transcript on each
 * change, and once that part is as tall as the terminal it can only clear the screen and leave
 * the bottom in view. So it is kept shorter than the terminal: the prompt (or the elicitation
 * form, which scrolls within its rows) comes first, and the cells still changing above it get
 * what is left, showing their latest lines with a count of those above (they are printed in full
 * once they settle).
 */

import { truncate } from '../text/fit.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

/** The prompt line, one wrapped continuation of it, and its hint. */
export const PROMPT_ROWS = 3;
/** Lines of the changing cells kept above a form (the call that asked for it, usually). */
export const FORM_CONTEXT_ROWS = 3;
/** Fewer rows than this and nothing sensible fits: lay out as if there were this many. */
const MIN_ROWS = 8;

export interface Viewport {
  /** Rows for the changing cells. */
  readonly live: number;
  /** Rows for the form or URL consent (unused with the prompt). */
  readonly prompt: number;
}

/**
 * How the `rows` of the terminal (undefined: unknown, nothing is limited) are shared between
 * `liveLines` lines of changing cells and the prompt or form below them. One row stays free.
 */
export function viewport(rows: number | undefined, liveLines: number, form: boolean): Viewport {
  if (rows === undefined || !Number.isFinite(rows) || rows <= 0)
    return { live: Number.POSITIVE_INFINITY, prompt: Number.POSITIVE_INFINITY };
  const budget = Math.max(MIN_ROWS, rows) - 1;
  if (!form) return { live: budget - PROMPT_ROWS, prompt: PROMPT_ROWS };
  const live = Math.min(liveLines, FORM_CONTEXT_ROWS);
  return { live, prompt: budget - live };
}

/** The last `max` of `lines`; when some are cut, the first line shown counts them. */
export function latestLines(lines: readonly Line[], max: number, width: number): Line[] {
  if (lines.length <= max) return [...lines];
  if (max <= 0) return [];
  const kept = lines.slice(lines.length - (max - 1));
  const above = lines.length - kept.length;
  return [
    line(truncate(`↑ ${above} more line${above === 1 ? '' : 's'} above`, width), 'dim'),
    ...kept,
  ];
}
