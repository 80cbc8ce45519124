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
});
