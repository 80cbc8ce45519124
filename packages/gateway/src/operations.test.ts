/**
 * Unit tests of the operation rounds (our own seam): the "call" is a promise the test settles,
 * elicitations are offered as the runtime's relay would, and rounds are served as a client's
 * requests would be.
 */

import { currentCallOrigin } from '@mcprt/runtime';
import type {
  CallCancel,
  ElicitationRequest,
  ElicitationResponse,
  RegistrationScope,
} from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { OperationTable } from './operationTable.js';
import type { ElicitationModes, OperationClient, Operation } from './operations.js';

const A: RegistrationScope = { environmentId: 'a', name: 'shared' };
const B: RegistrationScope = { environmentId: 'b', name: 'shared' };
const BOTH: ElicitationModes = { form: true, url: true };
/** Two clients of the gateway (their caller keys differ). */
const ALICE: OperationClient = { callerKey: 'alice' };
const BOB: OperationClient = { callerKey: 'bob' };

function elicitation(
  scope = A,
  mode: 'form' | 'url' = 'form',
  origin: object | null = null,
): ElicitationRequest {
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
    origin,
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
    const op = table.start(A, 'tools/call x', call.run, ALICE);
    setTimeout(() => call.finish('done'), 10);
    expect(await op.round(round())).toEqual({ kind: 'done', value: 'done' });
    expect(table.size).toBe(0);
  });

  it('turns an elicitation into an input round and delivers the answer to the asker only', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'tools/call x', call.run, ALICE);
    const first = op.round(round());
    const asked = elicitation();
    const reply = (table.forElicitation(asked) as Operation<unknown>).offer(asked);
    const outcome = await first;
    expect(outcome.kind).toBe('input');
    if (outcome.kind !== 'input') return;
    expect([...outcome.requests.entries()]).toEqual([['e1', asked]]);
    expect(table.resume(outcome.token, 'alice')).toBe(op);
    // Only the caller that started it may resume it.
    expect(table.resume(outcome.token, 'bob')).toBeUndefined();
    const second = op.round(
      round(undefined, new Map([['e1', { action: 'accept', content: { v: 1 } }]])),
    );
    expect(await reply).toEqual({ action: 'accept', content: { v: 1 } });
    call.finish('after input');
    expect(await second).toEqual({ kind: 'done', value: 'after input' });
    expect(table.resume(outcome.token, 'alice')).toBeUndefined();
  });

  it('routes an unlinked elicitation to the oldest operation of the asking scope of one client only', () => {
    const table = new OperationTable(60_000);
    const first = table.start(A, 'one', controllable<string>().run, ALICE);
    table.start(A, 'two', controllable<string>().run, ALICE);
    const other = table.start(B, 'three', controllable<string>().run, BOB);
    expect(table.forElicitation(elicitation(A))).toBe(first);
    expect(table.forElicitation(elicitation(B))).toBe(other);
    expect(
      table.forElicitation(elicitation({ environmentId: null, name: 'shared' })),
    ).toBeUndefined();
    // A second client waiting on A: an unlinked elicitation of A is nobody's to answer.
    table.start(A, 'four', controllable<string>().run, BOB);
    expect(table.forElicitation(elicitation(A))).toEqual({ ambiguous: 2 });
  });

  it('routes a linked elicitation to the operation it names, whoever else waits', () => {
    const table = new OperationTable(60_000);
    table.attributing = true;
    table.start(A, 'one', controllable<string>().run, ALICE);
    const bobs = table.start(A, 'two', controllable<string>().run, BOB);
    expect(table.forElicitation(elicitation(A, 'form', bobs))).toBe(bobs);
    // An origin that is no running operation (finished, or foreign) goes nowhere.
    expect(table.forElicitation(elicitation(A, 'form', {}))).toBeUndefined();
  });

  it('runs the call with its operation as origin while attributing', () => {
    const table = new OperationTable(60_000);
    let seen: object | null = null;
    const run = () => {
      seen = currentCallOrigin();
      return new Promise<string>(() => undefined);
    };
    const plain = table.start(A, 'x', run, ALICE);
    expect(seen).toBeNull();
    table.attributing = true;
    const linked = table.start(A, 'y', run, ALICE);
    expect(seen).toBe(linked);
    expect(plain).not.toBe(linked);
  });

  it('declines at once what the client cannot answer, and cancels what it left unanswered', async () => {
    const table = new OperationTable(60_000);
    const call = controllable<string>();
    const op = table.start(A, 'x', call.run, ALICE);
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
    const op = table.start(A, 'x', call.run, ALICE);
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
    const op = table.start(A, 'x', call.run, ALICE);
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
    const op = table.start(A, 'x', call.run, ALICE);
    const first = op.round(round());
    const reply = op.offer(elicitation());
    expect((await first).kind).toBe('input');
    expect(await reply).toEqual({ action: 'cancel' });
    expect(call.signal().aborted).toBe(true);
    expect(table.size).toBe(0);
  });
});
