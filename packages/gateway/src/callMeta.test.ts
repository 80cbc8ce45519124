/** Unit tests: what of a client's `_meta` is authority, what is forwarded, what is dropped. */

import { describe, expect, it } from 'vitest';

import { splitCallMeta } from './callMeta.js';

describe('splitCallMeta', () => {
  it('takes the state (the very value, not a copy) and the launcher path as the authority', () => {
    const state = { b: 1, a: { z: 0, y: [1] } };
    const split = splitCallMeta({
      keep: 1,
      'codex/sandbox-state': state,
      'codex/sandbox-state-meta': { other: true },
      'codex/sandbox-launcher': { codexExecutable: '/opt/codex' },
      'codex/sandbox-evil': 'x',
      progressToken: 7,
    });
    expect(split.authority?.state).toBe(state);
    expect(split.authority?.launcher).toBe('/opt/codex');
    expect(split.forward).toEqual({ keep: 1 });
  });

  it('falls back to the deprecated key; no state means no authority, even with a launcher', () => {
    expect(splitCallMeta({ 'codex/sandbox-state-meta': 's' }).authority).toEqual({ state: 's' });
    expect(
      splitCallMeta({
        'codex/sandbox-state': null,
        'codex/sandbox-launcher': { codexExecutable: '/x' },
      }).authority,
    ).toBeUndefined();
    expect(
      splitCallMeta({ 'codex/sandbox-state': 1, 'codex/sandbox-launcher': '/x' }).authority,
    ).toEqual({ state: 1 });
  });

  it('forwards nothing for an absent or non-object _meta, and keeps __proto__ as data', () => {
    expect(splitCallMeta(undefined)).toEqual({ forward: undefined, authority: undefined });
    expect(splitCallMeta(['x'])).toEqual({ forward: undefined, authority: undefined });
    const meta = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;
    const forward = splitCallMeta(meta).forward!;
    expect(Object.keys(forward)).toEqual(['__proto__', 'x']);
    expect(Object.getPrototypeOf(forward)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
