import { ProtocolError } from '@mcprt/protocol';
import { describe, expect, it } from 'vitest';

import { RequestTimeoutError } from './errors.js';
import { PendingRequests, toProtocolError } from './pendingRequests.js';

describe('PendingRequests', () => {
  it('allocates incrementing integer ids from 1 and settles by id', async () => {
    const pending = new PendingRequests();
    const a = pending.add('a', {});
    const b = pending.add('b', {});
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(pending.resolve({ id: 2, result: 'B' })).toBe(true);
    expect(pending.resolve({ id: 1, error: { code: -32600, message: 'bad', data: 1 } })).toBe(true);
    await expect(b.promise).resolves.toBe('B');
    await expect(a.promise).rejects.toEqual(new ProtocolError(-32600, 'bad', 1));
    expect(pending.size).toBe(0);
  });

  it('tells late answers (issued, given up) from unknown ids', async () => {
    const pending = new PendingRequests();
    const { id, promise } = pending.add('slow', { timeoutMs: 1 });
    await expect(promise).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(pending.resolve({ id, result: null })).toBe('late');
    expect(pending.resolve({ id: 42, result: null })).toBe('unknown');
    expect(pending.resolve({ id: 'x', result: null })).toBe('unknown');
    expect(pending.resolve({ id: null, error: { code: -32700, message: 'parse' } })).toBe(
      'unknown',
    );
  });

  it('rejects on abort with the signal reason and forgets the id', async () => {
    const pending = new PendingRequests();
    const controller = new AbortController();
    const { promise } = pending.add('x', { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(promise).rejects.toThrow('stop');
    expect(pending.size).toBe(0);
  });

  it('rejectAll rejects every request with its own error', async () => {
    const pending = new PendingRequests();
    const a = pending.add('a', {});
    const b = pending.add('b', {});
    pending.rejectAll((method, id) => new Error(`${method}#${String(id)}`));
    await expect(a.promise).rejects.toThrow('a#1');
    await expect(b.promise).rejects.toThrow('b#2');
  });
});

describe('toProtocolError', () => {
  it('keeps code, message and data, and survives a malformed error object', () => {
    expect(toProtocolError({ code: -1, message: 'm', data: { x: 1 } }).toJSON()).toEqual({
      code: -1,
      message: 'm',
      data: { x: 1 },
    });
    expect(toProtocolError('nope')).toMatchObject({
      code: -32603,
      message: 'app-server sent a malformed error response',
      data: 'nope',
    });
  });
});
