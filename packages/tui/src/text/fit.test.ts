/** Unit tests: the TUI fits server text with the SDK's sanitiser (issue #33, finding 5). */

import { describe, expect, it } from 'vitest';

import { clampLines, displayWidth, truncate, wrap, WRAP_MAX_LINES } from './fit.js';

const SPOOF = 'evil\u202Egnp.exe \u2067x\u2069 read\u200b_file\ufeff';

describe('fit', () => {
  it('shows bidi controls and invisible format characters as ?, in truncate and wrap', () => {
    const lines = [truncate(SPOOF, 80), ...wrap(SPOOF, 80, '  '), ...wrap(SPOOF, 12, '! ', '  ')];
    for (const line of lines) {
      expect(line).not.toMatch(/[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
      expect(displayWidth(line)).toBeLessThanOrEqual(80);
    }
    expect(truncate(SPOOF, 80)).toBe('evil?gnp.exe ?x? read?_file?');
    expect(clampLines(wrap(SPOOF, 12), 2, 12).join('\n')).not.toContain('\u202e');
  });

  it('keeps accents, CJK and emoji, measuring them in columns', () => {
    const text =
      'Grüße 東京 👨\u200d👩\u200d👧 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}';
    expect(truncate(text, 80)).toBe(text);
    expect(wrap(text, 80)).toEqual([text]);
  });

  it('cuts a 100k-character token to the lines asked for before wrapping, ending in …', () => {
    const token = 'A'.repeat(100_000);
    const rows = wrap(token, 80, '  ', '  ', 20);
    expect(rows).toHaveLength(20);
    expect(rows.at(-1)).toMatch(/A…$/);
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(80);
    // Without a row count, at most WRAP_MAX_LINES lines' worth; a surrogate pair is never split.
    expect(wrap(token, 80)).toHaveLength(WRAP_MAX_LINES);
    const emoji = wrap('😀'.repeat(50_000), 10, '', '', 3);
    expect(emoji.join('')).toMatch(/^(😀)+…$/u);
  });
});
