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
 * `text` wrapped to `width` columns: the first line starts with `firstPrefix`, the rest with
 * `restPrefix` (a hanging indent). Words longer than a line are split. Existing newlines are kept.
 */
export function wrap(
  text: string,
  width: number,
  firstPrefix = '',
  restPrefix = firstPrefix,
): string[] {
  const out: string[] = [];
  const avail = Math.max(1, width - Math.max(displayWidth(firstPrefix), displayWidth(restPrefix)));
  for (const paragraph of text.split(/\r?\n/)) {
    for (const line of wrapAnsi(sanitize(paragraph), avail, { hard: true, trim: true }).split(
      '\n',
    )) {
      out.push(truncate(`${out.length === 0 ? firstPrefix : restPrefix}${line}`, width));
    }
  }
  return out;
}

/** At most `max` lines; when some were dropped the last kept line says how many. */
export function clampLines(lines: readonly string[], max: number, width: number): string[] {
  if (lines.length <= max) return [...lines];
  const kept = lines.slice(0, Math.max(0, max - 1));
  const indent = /^\s*/.exec(lines[0] ?? '')?.[0] ?? '';
  kept.push(truncate(`${indent}… ${lines.length - kept.length} more lines`, width));
  return kept;
}
