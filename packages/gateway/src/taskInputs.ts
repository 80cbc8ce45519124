/**
 * The questions an underlying server asks during a task the gateway holds for a client (tasks.ts):
 * the task's call runs with this object as its origin (the runtime's `withCallOrigin`), so the
 * server's elicitations reach it — never another client — and wait here, the task showing
 * `input_required`, until the task's owner answers: a 2025-11-25 client inside `tasks/result`
 * (the gateway sends it the `elicitation/create`), a 2026-07-28 client through `tasks/get`'s
 * `inputRequests` and `tasks/update`'s `inputResponses`. A question in a mode the client did not
 * declare, or one asked before the server made the task (the call was still a plain call, with
 * no operation to carry it), is declined at once; one left unanswered for the input timeout, or
 * pending when the task is cancelled or ends, is answered `cancel`.
 */

import type { ElicitationRequest, ElicitationResponse } from '@mcprt/runtime';

import type { ElicitationModes } from './operations.js';

const CANCEL: ElicitationResponse = { action: 'cancel' };
const DECLINE: ElicitationResponse = { action: 'decline' };

interface Question {
  readonly request: ElicitationRequest;
  readonly resolve: (response: ElicitationResponse) => void;
  readonly timer: NodeJS.Timeout;
  /** A 2025 `tasks/result` has sent it to the client and waits for the answer. */
  sent: boolean;
}

export class TaskInputs {
  private readonly questions = new Map<string, Question>();
  private asks = 0;
  /** Questions are taken once the server made the task (before, the call is a plain call). */
  private opened = false;
  private closed = false;
  private wake: (() => void) | undefined;
  private woken: Promise<void> | undefined;

  constructor(
    private readonly modes: ElicitationModes,
    private readonly timeoutMs: number,
  ) {}

  /** A question of the task's server (the runtime's elicitation handler, gateway.ts). */
  offer(request: ElicitationRequest): Promise<ElicitationResponse> {
    const supported = request.mode === 'url' ? this.modes.url : this.modes.form;
    if (!supported || !this.opened || this.closed) return Promise.resolve(DECLINE);
    return new Promise((resolve) => {
      const key = `q${++this.asks}`;
      // A question never keeps the process alive (its connection's end withdraws it anyway).
      const timer = setTimeout(() => this.settle(key, CANCEL), this.timeoutMs).unref();
      this.questions.set(key, { request, resolve, timer, sent: false });
      // The server withdrew it (cancelled its request, or the call ended).
      request.signal.addEventListener('abort', () => this.settle(key, CANCEL), { once: true });
      this.changed();
    });
  }

  /** The server made the task: its questions wait for the client from now on. */
  open(): void {
    this.opened = true;
  }

  /** Whether a question waits for the client (the task reads `input_required`). */
  get waiting(): boolean {
    return this.questions.size > 0;
  }

  /** The questions waiting, by the keys the client answers them under. */
  pending(): Map<string, ElicitationRequest> {
    return new Map([...this.questions].map(([key, q]) => [key, q.request]));
  }

  /** The questions no `tasks/result` has sent yet (now marked sent). */
  takeUnsent(): Map<string, ElicitationRequest> {
    const out = new Map<string, ElicitationRequest>();
    for (const [key, question] of this.questions) {
      if (question.sent) continue;
      question.sent = true;
      out.set(key, question.request);
    }
    return out;
  }

  /** A send failed (the client's `tasks/result` went away): the next one sends it again. */
  unsent(key: string): void {
    const question = this.questions.get(key);
    if (question !== undefined) question.sent = false;
  }

  /** The client's answers; keys it was not asked under are ignored. */
  answer(answers: ReadonlyMap<string, ElicitationResponse>): void {
    for (const [key, response] of answers) this.settle(key, response);
  }

  /** Resolves at the next change (a question asked or settled, or the end). */
  next(): Promise<void> {
    return (this.woken ??= new Promise((resolve) => (this.wake = resolve)));
  }

  /** The task ended or was cancelled: every question left is answered `cancel`. */
  close(): void {
    this.closed = true;
    for (const key of [...this.questions.keys()]) this.settle(key, CANCEL);
    this.changed();
  }

  private settle(key: string, response: ElicitationResponse): void {
    const question = this.questions.get(key);
    if (question === undefined) return;
    this.questions.delete(key);
    clearTimeout(question.timer);
    question.resolve(response);
    this.changed();
  }

  private changed(): void {
    const wake = this.wake;
    this.wake = undefined;
    this.woken = undefined;
    wake?.();
  }
}
