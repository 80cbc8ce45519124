import { describe, expect, it } from 'vitest';

import { parseExposition, sumOf, valueOf } from './promText.js';

describe('parseExposition', () => {
  it('reads types, labels (escapes included) and values', () => {
    const exposition = parseExposition(
      [
        '# HELP c_total Some help.',
        '# TYPE c_total counter',
        'c_total{a="x",b="quote \\" and \\\\ and \\n"} 3',
        'c_total{a="y"} 4',
        '# TYPE h histogram',
        'h_bucket{le="+Inf"} 2',
        'g 1.5e3 1700000000000',
        '',
      ].join('\n'),
    );
    expect(exposition.types.get('c_total')).toBe('counter');
    expect(valueOf(exposition, 'c_total', { a: 'x', b: 'quote " and \\ and \n' })).toBe(3);
    expect(sumOf(exposition, 'c_total')).toBe(7);
    expect(valueOf(exposition, 'h_bucket', { le: '+Inf' })).toBe(2);
    expect(valueOf(exposition, 'g')).toBe(1500);
    expect(valueOf(exposition, 'c_total', { a: 'z' })).toBeUndefined();
  });

  it.each([
    ['no value', 'c_total{a="x"}'],
    ['an unquoted label', 'c_total{a=x} 1'],
    ['an unterminated label set', 'c_total{a="x" 1'],
    ['a word for a value', 'c_total one'],
    ['a bad comment', '# TYPO c_total counter'],
    ['an unknown type', '# TYPE c_total countr'],
  ])('rejects %s', (_what, line) => {
    expect(() => parseExposition(line)).toThrow(/exposition line 1/);
  });
});
