/**
 * Unit tests of the operation rounds (our own seam): the "call" is a promise the test settles,
 * elicitations are offered as the runtime's relay would, and rounds are served as a client's
 * requests would be.
 */

import type { CallCancel, ElicitationRequest, ElicitationResponse } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { OperationTable } from './operations.js';
import type { ElicitationModes } from './operations.js';

const A = { environmentId: 'a', name: 'shared' };
const B = { environmentId: 'b', name: 'shared' };
const BOTH: ElicitationModes = { form: true, url: true };

function elicitation(scope = A, mode: 'form' | 'url' = 'form'): ElicitationRequest {
  return {
    threadId: 't',
    scope,
    serverName: scope.name,
    environmentId: scope.environmentId,
    requestId: 1,
    mode,
    message: 'ask',
    _meta: null,
    signal: new AbortController().signal,
  };
}

/** A call the test finishes itself, recording the cancellation it was given. */
function controllable<T>() {
  let resolve!: (value: T) => void;
  let signal!: CallCancel;
  const run = (s: CallCancel) => {
    signal = s;
    return new Promise<T>((r, reject) => {
      resolve = r;
      s.listen({ cancel: (reason) => reject(reason as Error) });
    });
  };
  return { run, finish: (value: T) => resolve(value), signal: () => signal };
}

const round = (
  signal = new AbortController().signal,
  answers?: Map<string, ElicitationResponse>,
) => ({
  signal,
  spansRounds: false,
  modes: BOTH,
  ...(answers ? { answers } : {}),
});

describe('operations', () => {
  it('answers with the result when the call needs no input', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'tools/call x', call.run);
    setTimeout(() => call.finish('done'), 10);
    expect(await op.round(round())).toEqual({ kind: 'done', value: 'done' });
    expect(table.size).toBe(0);
  });

  it('turns an elicitation into an input round and delivers the answer to the asker only', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'tools/call x', call.run);
    const first = op.round(round());
    const asked = elicitation();
    const reply = table.forScope(A)!.offer(asked);
    const outcome = await first;
    expect(outcome.kind).toBe('input');
    if (outcome.kind !== 'input') return;
    expect([...outcome.requests.entries()]).toEqual([['e1', asked]]);
    expect(table.resume(outcome.token)).toBe(op);
    const second = op.round(
      round(undefined, new Map([['e1', { action: 'accept', content: { v: 1 } }]])),
    );
    expect(await reply).toEqual({ action: 'accept', content: { v: 1 } });
    call.finish('after input');
    expect(await second).toEqual({ kind: 'done', value: 'after input' });
    expect(table.resume(outcome.token)).toBeUndefined();
  });

  it('routes an elicitation to the oldest unfinished operation of the asking scope only', () => {
    const table = new OperationTable(60_000);
    const first = table.start(A, 'one', controllable<string>().run);
    table.start(A, 'two', controllable<string>().run);
    const other = table.start(B, 'three', controllable<string>().run);
    expect(table.forScope(A)).toBe(first);
    expect(table.forScope(B)).toBe(other);
    expect(table.forScope({ environmentId: null, name: 'shared' })).toBeUndefined();
  });

  it('declines at once what the client cannot answer, and cancels what it left unanswered', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'x', call.run);
    const first = op.round({ ...round(), modes: { form: true, url: false } });
    expect(await op.offer(elicitation(A, 'url'))).toEqual({ action: 'decline' });
    const reply = op.offer(elicitation());
    expect((await first).kind).toBe('input');
    const second = op.round(round(undefined, new Map()));
    expect(await reply).toEqual({ action: 'cancel' });
    call.finish('ok');
    expect(await second).toEqual({ kind: 'done', value: 'ok' });
  });

  it('a cancelled round cancels the call; a 2026 round already answered does not', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'x', call.run);
    const answered = new AbortController();
    const first = op.round(round(answered.signal));
    void op.offer(elicitation());
    expect((await first).kind).toBe('input');
    answered.abort(new Error('the HTTP exchange closed'));
    expect(call.signal().aborted).toBe(false);

    const cancelled = new AbortController();
    const second = op.round(round(cancelled.signal, new Map()));
    cancelled.abort(new Error('client cancelled'));
    expect(call.signal().aborted).toBe(true);
    expect(await second).toMatchObject({ kind: 'failed' });
  });

  it('a 2025 request spanning the rounds cancels the call even between rounds', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'x', call.run);
    const outer = new AbortController();
    const first = op.round({ ...round(outer.signal), spansRounds: true });
    const reply = op.offer(elicitation());
    expect((await first).kind).toBe('input');
    outer.abort(new Error('cancelled while the user was answering'));
    expect(call.signal().aborted).toBe(true);
    expect(await reply).toEqual({ action: 'cancel' });
  });

  it('cancels a parked operation whose client never comes back', async () => {
    const table = new OperationTable(50);
    const call = controllable<string>();
    const op = table.start(A, 'x', call.run);
    const first = op.round(round());
    const reply = op.offer(elicitation());
    expect((await first).kind).toBe('input');
    expect(await reply).toEqual({ action: 'cancel' });
    expect(call.signal().aborted).toBe(true);
    expect(table.size).toBe(0);
  });
});
