/** Provider-chosen text in our errors: one line, clipped by characters (never mid-emoji). */

import { describe, expect, it } from 'vitest';

import { PROVIDER_TEXT_MAX, providerText } from './providerText.js';

describe('providerText', () => {
  it('puts every kind of line break on one line and keeps short text as is', () => {
    expect(providerText('a\nb\r\nc\u2028d\u2029e\u0085f\tg')).toBe('a b c d e f g');
    expect(providerText('the user said no')).toBe('the user said no');
  });

  it('clips long text to the limit, ending in …, never inside a surrogate pair', () => {
    const clipped = providerText('😀'.repeat(1_000));
    expect(Array.from(clipped)).toHaveLength(PROVIDER_TEXT_MAX);
    expect(clipped).toMatch(/^(😀)+…$/u);
    expect(providerText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
