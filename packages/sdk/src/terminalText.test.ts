/** Unit tests: the one terminal-text sanitiser the TUI and the CLI share. */

import { describe, expect, it } from 'vitest';

import { sanitizeTerminalText } from './terminalText.js';

describe('sanitizeTerminalText', () => {
  it('removes OSC (clipboard, title), CSI and other escapes whole, in 7- and 8-bit forms', () => {
    expect(sanitizeTerminalText('a\u001b]52;c;cHduZWQ=\u0007b')).toBe('ab');
    expect(sanitizeTerminalText('a\u001b]0;title\u001b\\b\u009d2;t\u009cc')).toBe('abc');
    expect(sanitizeTerminalText('a\u001b[2J\u001b[1;31mb\u009b?25lc\u001b[0m')).toBe('abc');
    expect(sanitizeTerminalText('a\u001bPq#0;2;0;0;0\u001b\\b\u001b7c\u001b(Bd')).toBe('abcd');
    expect(sanitizeTerminalText('unterminated \u001b]52;c;eA')).toBe('unterminated ');
  });

  it('shows every other control as ?, keeping line breaks and tabs only when asked', () => {
    expect(sanitizeTerminalText('a\rb\u0008c\u007fd\u0085e\nf\tg')).toBe('a?b?c?d?e?f\tg');
    expect(sanitizeTerminalText('a\r\nb\nc\rd', { newlines: true })).toBe('a\nb\nc?d');
    expect(sanitizeTerminalText('a\tb', { tab: '  ' })).toBe('a  b');
  });

  it('leaves ordinary text, including non-ASCII, untouched', () => {
    const text = 'Grüße — 東京 🚀 [ok] ~/path?x=1';
    expect(sanitizeTerminalText(text, { newlines: true })).toBe(text);
  });

  // Issue #33, finding 5: bidi controls and invisible format characters.
  const BIDI = [
    '\u061c',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
  ];
  const INVISIBLE = [
    '\u00ad',
    '\u180e',
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2028',
    '\u2029',
    '\u2060',
    '\u2061',
    '\u2062',
    '\u2063',
    '\u2064',
    '\u206a',
    '\u206f',
    '\ufeff',
    '\ufff9',
    '\ufffb',
    '\u{e0001}',
    '\u{e0041}',
    '\u{e007f}',
  ];

  it.each([...BIDI, ...INVISIBLE].map((c) => [c.codePointAt(0)!.toString(16), c]))(
    'shows U+%s as ? like a C1 control, with and without newlines',
    (_, c) => {
      expect(sanitizeTerminalText(`a${c}b`)).toBe('a?b');
      expect(sanitizeTerminalText(`a${c}b`, { newlines: true })).toBe('a?b');
      expect(sanitizeTerminalText(`a${c}b`)).toBe(sanitizeTerminalText('a\u0085b'));
    },
  );

  it('a right-to-left override cannot disguise a file name', () => {
    const shown = sanitizeTerminalText('evil\u202Egnp.exe');
    expect(shown).toBe('evil?gnp.exe');
    expect(shown).not.toContain('\u202e');
    expect(sanitizeTerminalText('\u2067read_file\u2069 \u202dx\u202c')).toBe('?read_file? ?x?');
    // Two names that would look the same are told apart.
    expect(sanitizeTerminalText('read\u200b_file')).not.toBe(sanitizeTerminalText('read_file'));
    expect(sanitizeTerminalText('pay\u200dpal')).toBe('pay?pal');
    expect(sanitizeTerminalText('pay\u200cpal')).toBe('pay?pal');
    expect(sanitizeTerminalText('a\u{e0069}\u{e0067}\u{e006e}b')).toBe('a???b');
  });

  it('keeps accents, CJK, right-to-left scripts and emoji (ZWJ, skin tone, flags) as they are', () => {
    const text = [
      'Grüße, naïve café, Ångström', // precomposed
      'Cafe\u0301', // combining accent
      '東京 한국어 ひらがな',
      'שלום עולם مرحبا', // RTL scripts without controls display by themselves
      'می\u200cخواهم', // Persian with a ZWNJ between letters
      '👨\u200d👩\u200d👧\u200d👦 👩🏽\u200d💻 ❤\ufe0f\u200d🔥 🏳\ufe0f\u200d🌈',
      '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}', // England's flag
      '🇫🇷 👍🏿 1\ufe0f\u20e3',
    ].join('\n');
    expect(sanitizeTerminalText(text, { newlines: true })).toBe(text);
  });
});
