/**
 * Fitting text to a terminal width, deliberately: every line the TUI prints is produced here
 * already narrower than the terminal, so the terminal never breaks a line on its own. Long
 * single-line items are truncated with `…`; messages (errors, stderr, results) are wrapped at
 * word boundaries under a hanging indent. Widths are display columns (wide and emoji characters
 * count as two), measured with string-width.
 */

import { sanitizeTerminalText } from '@mcprt/sdk';
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/** Display columns of `text`. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * Escape sequences are dropped, other control characters — and bidi controls and invisible format
 * characters, so server text cannot reorder or disguise what the screen shows — are shown as `?`
 * (the SDK's rules).
 */
function sanitize(text: string): string {
  return sanitizeTerminalText(text, { tab: '  ' });
}

/** `text` on one line of at most `width` columns, ending in `…` when it was cut. */
export function truncate(text: string, width: number): string {
  const flat = sanitize(text.replace(/\r?\n/g, ' '));
  if (width <= 0) return '';
  return displayWidth(flat) <= width ? flat : cliTruncate(flat, width, { position: 'end' });
}

/**
 * The most lines one {@link wrap} makes of a text. Past `maxLines` lines' worth of characters a
 * text is cut (ending in `…`) before it is wrapped: wrap-ansi takes seconds on one
 * 100,000-character token, and a server chooses that text. A line holds at most its width in
 * characters of one column or more, so the cut never drops what those lines could show.
 */
export const WRAP_MAX_LINES = 200;

/** `text` cut to `limit` UTF-16 units (never inside a surrogate pair), `…` where it was cut. */
function capped(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * `text` wrapped to `width` columns: the first line starts with `firstPrefix`, the rest with
 * `restPrefix` (a hanging indent). Words longer than a line are split. Existing newlines are kept.
 * Only about `maxLines` lines' worth of the text is wrapped (at most {@link WRAP_MAX_LINES}).
 */
export function wrap(
  text: string,
  width: number,
  firstPrefix = '',
  restPrefix = firstPrefix,
  maxLines = WRAP_MAX_LINES,
): string[] {
  const out: string[] = [];
  const avail = Math.max(1, width - Math.max(displayWidth(firstPrefix), displayWidth(restPrefix)));
  const lines = Math.max(1, Math.min(maxLines, WRAP_MAX_LINES));
  for (const paragraph of capped(text, avail * lines - 1).split(/\r?\n/)) {
    for (const line of wrapAnsi(sanitize(paragraph), avail, { hard: true, trim: true }).split(
      '\n',
    )) {
      out.push(truncate(`${out.length === 0 ? firstPrefix : restPrefix}${line}`, width));
    }
  }
  return out;
}

/**
 * At most `max` lines; when some were dropped the last kept line says how many (`N+` when the
 * text had already been cut before wrapping: the last line ends in `…`).
 */
export function clampLines(lines: readonly string[], max: number, width: number): string[] {
  if (lines.length <= max) return [...lines];
  const kept = lines.slice(0, Math.max(0, max - 1));
  const indent = /^\s*/.exec(lines[0] ?? '')?.[0] ?? '';
  const cut = lines.at(-1)?.endsWith('…') === true ? '+' : '';
  kept.push(truncate(`${indent}… ${lines.length - kept.length}${cut} more lines`, width));
  return kept;
}
