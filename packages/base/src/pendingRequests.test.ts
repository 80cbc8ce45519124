import { describe, expect, it } from 'vitest';

import { PendingRequests } from './pendingRequests.js';

class Timeout extends Error {}

describe('PendingRequests', () => {
  it('allocates incrementing integer ids from 1 (or firstId) and settles by id', async () => {
    const pending = new PendingRequests();
    const a = pending.add('a');
    const b = pending.add('b');
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(pending.settle(2, { ok: true, value: 'B' })).toBe(true);
    expect(pending.settle(1, { ok: false, error: new Error('bad') })).toBe(true);
    await expect(b.promise).resolves.toBe('B');
    await expect(a.promise).rejects.toThrow('bad');
    expect(pending.size).toBe(0);
    expect(new PendingRequests({ firstId: 0 }).add('z').id).toBe(0);
  });

  it('tells late answers (issued, given up) from unknown ids', async () => {
    const pending = new PendingRequests({ timeoutError: () => new Timeout('late') });
    const { id, promise } = pending.add('slow', { timeoutMs: 1 });
    await expect(promise).rejects.toBeInstanceOf(Timeout);
    expect(pending.settle(id, { ok: true, value: null })).toBe('late');
    expect(pending.settle(42, { ok: true, value: null })).toBe('unknown');
    expect(pending.settle('x', { ok: true, value: null })).toBe('unknown');
    expect(pending.settle(null, { ok: true, value: null })).toBe('unknown');
  });

  it('names the method in the default timeout error', async () => {
    const { promise } = new PendingRequests().add('tools/call', { timeoutMs: 1 });
    await expect(promise).rejects.toThrow('tools/call timed out after 1 ms');
  });

  it('rejects on abort with the signal reason and forgets the id', async () => {
    const pending = new PendingRequests();
    const controller = new AbortController();
    const { promise } = pending.add('x', { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(promise).rejects.toThrow('stop');
    expect(pending.size).toBe(0);
  });

  it('reject and rejectAll reject with the given errors', async () => {
    const pending = new PendingRequests();
    const a = pending.add('a');
    const b = pending.add('b');
    const c = pending.add('c');
    pending.reject(c.id, new Error('not sent'));
    pending.rejectAll((method, id) => new Error(`${method}#${String(id)}`));
    await expect(a.promise).rejects.toThrow('a#1');
    await expect(b.promise).rejects.toThrow('b#2');
    await expect(c.promise).rejects.toThrow('not sent');
    expect(pending.size).toBe(0);
  });
});
