import { describe, expect, it } from 'vitest';

import { resolveScopes } from './login.js';

describe('scope resolution: explicit > step-up > configured (even empty) > discovered', () => {
  it('explicit scopes win', () => {
    expect(resolveScopes(['a', 'b'], ['s'], ['c'])).toEqual({ scope: 'a b', omitScope: false });
  });
  it('an empty explicit list does not count', () => {
    expect(resolveScopes([], [], ['c'])).toEqual({ scope: 'c', omitScope: false });
  });
  it('step-up scopes come next', () => {
    expect(resolveScopes(undefined, ['s', 't'], ['c'])).toEqual({ scope: 's t', omitScope: false });
  });
  it('configured scopes = [] means no scope at all (never the discovered ones)', () => {
    expect(resolveScopes(undefined, [], [])).toEqual({ scope: undefined, omitScope: true });
  });
  it('nothing configured leaves the choice to discovery', () => {
    expect(resolveScopes(undefined, [], null)).toEqual({ scope: undefined, omitScope: false });
  });
});
