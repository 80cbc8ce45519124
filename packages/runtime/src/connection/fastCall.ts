/**
 * The per-call state of the tool-call fast path (fastToolCalls.ts, ADR 0023): one `FastCall`
 * object per request (its promise's settlement, deadline, cancellation registration) instead of
 * closures, and `Deadlines`, the one timer that times out a connection's calls.
 */

import type { JsonSchemaValidator } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { CallSignal } from './callCancel.js';

/** What settles a call that is cancelled or timed out (the connection's `FastToolCalls`). */
export interface CallOwner {
  cancel(call: FastCall, reason: unknown): void;
}

/**
 * One request in flight: how it settles, its deadline and what cancels it. Its fields are
 * `declare`d and assigned in the constructor: a class field (ES2022 define semantics) costs an
 * extra initializer call and a define per field for every call, at interpreter speed.
 */
export class FastCall {
  declare readonly owner: CallOwner;
  declare readonly id: number;
  declare readonly wireId: string;
  declare readonly signal: CallSignal | undefined;
  declare readonly timeoutMs: number;
  /** 2026-07-28: the raw answer is wanted (the SDK's codec resolves and translates it). */
  declare readonly raw: boolean;
  /** The tool's output validator (null: none) and name, checked here on 2025. */
  declare readonly validate: JsonSchemaValidator<unknown> | null;
  declare readonly name: string;
  /** When the call times out (`performance.now()` time). */
  declare readonly deadline: number;
  declare resolve: (value: unknown) => void;
  declare reject: (error: unknown) => void;
  declare readonly promise: Promise<unknown>;
  /** The `abort` listener when the call's signal is an `AbortSignal`. */
  declare onAbort: (() => void) | undefined;

  constructor(
    owner: CallOwner,
    id: number,
    wireId: string,
    signal: CallSignal | undefined,
    timeoutMs: number,
    raw: boolean,
    validate: JsonSchemaValidator<unknown> | null,
    name: string,
  ) {
    this.owner = owner;
    this.id = id;
    this.wireId = wireId;
    this.signal = signal;
    this.timeoutMs = timeoutMs;
    this.raw = raw;
    this.validate = validate;
    this.name = name;
    this.deadline = performance.now() + timeoutMs;
    this.onAbort = undefined;
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** `CallCancel`'s registration. */
  cancel(reason: unknown): void {
    this.owner.cancel(this, reason);
  }
}

function timedOut(call: FastCall): void {
  call.owner.cancel(
    call,
    new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', {
      timeout: call.timeoutMs,
    }),
  );
}

/**
 * The timeouts of a connection's calls on one timer, armed for the earliest deadline (ADR 0023):
 * a timer made and cleared per call was a measurable share of a call's work. When it fires it
 * times out every call past its deadline and is armed again for the next; it holds the event loop
 * open only while calls are in flight, as the per-call timers did.
 */
export class Deadlines {
  private timer: NodeJS.Timeout | undefined = undefined;
  private due = Infinity;

  constructor(private readonly calls: Map<number, FastCall>) {}

  /** A call was added. */
  added(deadline: number): void {
    if (this.timer !== undefined && this.due <= deadline) {
      this.timer.ref();
      return;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.due = deadline;
    this.timer = setTimeout(
      () => this.fire(),
      Math.max(1, Math.ceil(deadline - performance.now())),
    );
  }

  /** A call ended: with none left the timer no longer holds the process. */
  removed(): void {
    if (this.calls.size === 0) this.timer?.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.due = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const call of [...this.calls.values()]) {
      if (call.deadline <= now) timedOut(call);
      else if (call.deadline < next) next = call.deadline;
    }
    if (next !== Infinity && this.calls.size > 0) this.added(next);
  }
}
