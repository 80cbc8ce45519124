import { describe, expect, it, vi } from 'vitest';

import { LineDecoder } from './lineDecoder.js';

function decode(chunks: (string | Buffer)[], maxLineBytes?: number) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const decoder = new LineDecoder({
    onLine: (line) => lines.push(line),
    onOverflow: (bytes) => overflows.push(bytes),
    ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
  });
  for (const chunk of chunks) decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return { lines, overflows, decoder };
}

describe('LineDecoder', () => {
  it('emits one line per newline, across and within chunks', () => {
    const { lines } = decode(['{"a":1}\n{"b"', ':2}\n{"c":3}\n{"d"']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('héllo ✓\n');
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    const { lines } = decode([bytes.subarray(0, 2), bytes.subarray(2, cut), bytes.subarray(cut)]);
    expect(lines).toEqual(['héllo ✓']);
  });

  it('strips a trailing carriage return', () => {
    expect(decode(['one\r\ntwo\n']).lines).toEqual(['one', 'two']);
  });

  it('flushes an unterminated last line on end', () => {
    const { lines, decoder } = decode(['one\ntwo']);
    decoder.end();
    expect(lines).toEqual(['one', 'two']);
  });

  it('drops a line over the bound and resynchronizes at the next newline', () => {
    const { lines, overflows } = decode(['ok\n', 'x'.repeat(6), 'x'.repeat(6), '\nnext\n'], 10);
    expect(lines).toEqual(['ok', 'next']);
    expect(overflows).toEqual([12]);
  });

  it('accepts a line of exactly the bound', () => {
    expect(decode(['1234567890\n'], 10).lines).toEqual(['1234567890']);
  });

  it('rejects a bound that is not a positive integer', () => {
    const onLine = vi.fn();
    expect(() => new LineDecoder({ onLine, maxLineBytes: 0 })).toThrow(/maxLineBytes/);
    expect(() => new LineDecoder({ onLine, maxLineBytes: 1.5 })).toThrow(TypeError);
  });
});
