/** Unit tests: the questions of a task's server wait for the task's client, within bounds. */

import type { ElicitationRequest } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { TaskInputs } from './taskInputs.js';

const FORM_ONLY = { form: true, url: false };

function question(mode: 'form' | 'url' = 'form', signal = new AbortController().signal) {
  return {
    requestId: 1,
    mode,
    message: 'name?',
    _meta: null,
    signal,
    origin: null,
    threadId: 't',
    scope: { environmentId: null, name: 's' },
    serverName: 's',
    environmentId: null,
  } as ElicitationRequest;
}

describe('task inputs', () => {
  it('before the task exists, and in a mode the client did not declare: declined at once', async () => {
    const inputs = new TaskInputs(FORM_ONLY, 60_000);
    expect(await inputs.offer(question())).toEqual({ action: 'decline' });
    inputs.open();
    expect(await inputs.offer(question('url'))).toEqual({ action: 'decline' });
    expect(inputs.waiting).toBe(false);
  });

  it('waits for the client: answered under its key, other keys ignored, each sent once', async () => {
    const inputs = new TaskInputs(FORM_ONLY, 60_000);
    inputs.open();
    const changed = inputs.next();
    const answer = inputs.offer(question());
    await changed;
    expect(inputs.waiting).toBe(true);
    const [key] = [...inputs.pending().keys()];
    expect([...inputs.takeUnsent().keys()]).toEqual([key]);
    expect(inputs.takeUnsent().size).toBe(0);
    inputs.unsent(key!);
    expect([...inputs.takeUnsent().keys()]).toEqual([key]);
    inputs.answer(new Map([['other', { action: 'decline' }]]));
    expect(inputs.waiting).toBe(true);
    inputs.answer(new Map([[key!, { action: 'accept', content: { name: 'Ada' } }]]));
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(inputs.waiting).toBe(false);
  });

  it('unanswered past the timeout, withdrawn by the server, or left at the end: cancel', async () => {
    const inputs = new TaskInputs(FORM_ONLY, 50);
    inputs.open();
    expect(await inputs.offer(question())).toEqual({ action: 'cancel' });
    const withdrawn = new AbortController();
    const pending = inputs.offer(question('form', withdrawn.signal));
    withdrawn.abort();
    expect(await pending).toEqual({ action: 'cancel' });
    const slow = new TaskInputs(FORM_ONLY, 60_000);
    slow.open();
    const left = slow.offer(question());
    slow.close();
    expect(await left).toEqual({ action: 'cancel' });
    expect(await slow.offer(question())).toEqual({ action: 'decline' });
  });
});
