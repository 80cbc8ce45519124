/** toJsonText sorts keys and lays JSON out exactly as Prettier (width 100) does. */

import { format } from 'prettier';
import { describe, expect, it } from 'vitest';

import { sortJson, toJsonText } from './jsonText.js';

const prettier = (text: string) =>
  format(text, { parser: 'json', printWidth: 100, singleQuote: true, trailingComma: 'all' });

describe('toJsonText', () => {
  it('sorts object keys and `required` lists, not other arrays', () => {
    expect(sortJson({ b: 1, a: { d: [3, 1], c: null }, required: ['z', 'a'] })).toEqual({
      a: { c: null, d: [3, 1] },
      b: 1,
      required: ['a', 'z'],
    });
    expect(Object.keys(sortJson({ b: 1, $schema: 2, a: 3 }) as object)).toEqual([
      '$schema',
      'a',
      'b',
    ]);
  });

  it('matches Prettier at and around the line width', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const samples: unknown[] = [
      { a: [], b: {}, c: [{}], d: [[1, 2], []], e: 'é—≤' },
      { nested: { list: [long(40), long(41)] } },
      // `  "k": ["…"]` is 11 characters plus the string: 89 fits in 100, 90 does not.
      { k: [long(89)] },
      { k: [long(90)] },
      // …and one less when a comma follows.
      { k: [long(88)], z: 1 },
      { k: [long(89)], z: 1 },
      { k: [{ a: 1 }] },
      { k: [{ a: 1 }, { b: [1, 'two', null, true] }] },
      { deep: { deeper: { deepest: [long(70), long(10)] } } },
      [1, 2, 3],
    ];
    for (const value of samples) {
      const text = toJsonText(value);
      expect(await prettier(text), text).toBe(text);
      expect(JSON.parse(text)).toEqual(sortJson(value));
    }
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => toJsonText({ a: Number.NaN })).toThrow(TypeError);
  });
});
