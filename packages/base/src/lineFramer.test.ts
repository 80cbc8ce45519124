import { describe, expect, it, vi } from 'vitest';

import { LineFramer, LineTooLongError } from './lineFramer.js';

function frame(chunks: (string | Buffer)[], options: { maxLineBytes?: number } = {}) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const framer = new LineFramer({
    onLine: (line) => lines.push(line),
    onOverflow: (bytes) => overflows.push(bytes),
    ...options,
  });
  for (const chunk of chunks) framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return { lines, overflows, framer };
}

describe('LineFramer', () => {
  it('emits one line per newline, across and within chunks', () => {
    const { lines } = frame(['{"a":1}\n{"b"', ':2}\n{"c":3}\n{"d"']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('héllo ✓\n');
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    const { lines } = frame([bytes.subarray(0, 2), bytes.subarray(2, cut), bytes.subarray(cut)]);
    expect(lines).toEqual(['héllo ✓']);
  });

  it('strips a trailing carriage return and skips blank lines', () => {
    expect(frame(['one\r\n\n  \r\ntwo\n']).lines).toEqual(['one', 'two']);
  });

  it('joins a line dripped one byte at a time', () => {
    expect(frame([...'{"drip":true}\n'].map((c) => c)).lines).toEqual(['{"drip":true}']);
  });

  it('flushes an unterminated last line on end', () => {
    const { lines, framer } = frame(['one\ntwo']);
    framer.end();
    expect(lines).toEqual(['one', 'two']);
  });

  it('skip policy: drops a line over the bound and resynchronizes at the next newline', () => {
    const { lines, overflows } = frame(['ok\n', 'x'.repeat(6), 'x'.repeat(6), '\nnext\n'], {
      maxLineBytes: 10,
    });
    expect(lines).toEqual(['ok', 'next']);
    expect(overflows).toEqual([12]);
  });

  it('accepts a line of exactly the bound', () => {
    expect(frame(['1234567890\n'], { maxLineBytes: 10 }).lines).toEqual(['1234567890']);
  });

  it('error policy: throws as soon as the bound is passed, before the newline arrives', () => {
    const lines: string[] = [];
    const framer = new LineFramer({
      onLine: (line) => lines.push(line),
      maxLineBytes: 8,
      overflow: 'error',
    });
    framer.push(Buffer.from('short\n12345'));
    expect(lines).toEqual(['short']);
    expect(() => framer.push(Buffer.from('6789'))).toThrow(LineTooLongError);
    expect(() => framer.push(Buffer.from('9'.repeat(9)))).toThrow(
      'a line exceeds the maximum of 8 bytes',
    );
  });

  it('rejects a bound that is not a positive integer', () => {
    const onLine = vi.fn();
    expect(() => new LineFramer({ onLine, maxLineBytes: 0 })).toThrow(/maxLineBytes/);
    expect(() => new LineFramer({ onLine, maxLineBytes: 1.5 })).toThrow(TypeError);
  });
});
