/** Unit tests: binding workers and cached results to the authority that created them. */

import { describe, expect, it } from 'vitest';

import type { SandboxAuthority } from './authority.js';
import { readSandboxAuthority } from './authority.js';
import { AuthorityBound, AuthorityCache, AuthorityChangedError, AuthoritySlot } from './binding.js';

const authority = (type: string): SandboxAuthority =>
  readSandboxAuthority({ 'codex/sandbox-state': { sandboxPolicy: { type } } })!;
const A = authority('readOnly');
const A2 = authority('readOnly'); // equal, not the same object
const B = authority('workspaceWrite');

describe('AuthorityBound', () => {
  it('serves the authority it was created under and rejects any other', () => {
    const bound = new AuthorityBound(A, 'value', 'the worker');
    expect(bound.use(A2)).toBe('value');
    expect(() => bound.use(B)).toThrowError(AuthorityChangedError);
    expect(() => bound.use(null)).toThrowError(
      'the worker was created under a different sandbox authority and cannot be reused',
    );
  });
});

describe('AuthoritySlot', () => {
  it('reuses for the same authority, disposes and rebuilds on a change', async () => {
    const created: string[] = [];
    const disposed: string[] = [];
    let n = 0;
    const slot = new AuthoritySlot(
      (a) => {
        const name = `w${++n}:${JSON.stringify(a?.state)}`;
        created.push(name);
        return name;
      },
      (w) => {
        disposed.push(w);
      },
    );
    const first = await slot.get(A);
    expect(first).toMatchObject({ created: true, replaced: false });
    expect(await slot.get(A2)).toEqual({ value: first.value, created: false, replaced: false });
    const second = await slot.get(B);
    expect(second).toMatchObject({ created: true, replaced: true });
    expect(second.value).not.toBe(first.value);
    expect(disposed).toEqual([first.value]);
    await slot.close();
    expect(disposed).toEqual([first.value, second.value]);
    expect(created).toHaveLength(2);
  });

  it('serializes concurrent calls: one creation for one authority', async () => {
    let creations = 0;
    const slot = new AuthoritySlot(
      async () => {
        creations++;
        await new Promise((r) => setTimeout(r, 10));
        return creations;
      },
      () => undefined,
    );
    const results = await Promise.all([slot.get(A), slot.get(A2), slot.get(A)]);
    expect(creations).toBe(1);
    expect(results.map((r) => r.created)).toEqual([true, false, false]);
  });

  it('a failed creation leaves the slot empty and usable', async () => {
    let fail = true;
    const slot = new AuthoritySlot(
      () => {
        if (fail) throw new Error('no launcher');
        return 'ok';
      },
      () => undefined,
    );
    await expect(slot.get(A)).rejects.toThrowError('no launcher');
    fail = false;
    expect(await slot.get(A)).toMatchObject({ value: 'ok', created: true });
  });
});

describe('AuthorityCache', () => {
  it('returns a result only to calls with the authority it was computed under', () => {
    const cache = new AuthorityCache<string, number>();
    cache.set('ls', A, 1);
    expect(cache.get('ls', A2)).toBe(1);
    expect(cache.get('other', A)).toBeUndefined();
    expect(cache.get('ls', B)).toBeUndefined();
    expect(cache.size).toBe(0); // the stale entry is gone, not kept for later
    expect(cache.get('ls', A)).toBeUndefined();
  });
});
