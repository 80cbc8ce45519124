/**
 * A tool call's cancellation without an `AbortSignal` (ADR 0023). Creating an `AbortSignal` and
 * adding and removing its `abort` listener was the largest piece of mcprt's own per-call work in
 * the app-server at 50 warm-up calls (event-target option checks, the signal's creation), so a
 * host that cancels calls itself (the app-server) passes a `CallCancel` as the call's `signal`.
 * It reads like a signal (`aborted`, `reason`); the tool-call fast path registers a plain
 * callback; anything that needs a real `AbortSignal` (the SDK's request path) gets one, made on
 * first use and aborted with it.
 */

/** What cancels a call: a standard `AbortSignal` or the lighter `CallCancel`. */
export type CallSignal = AbortSignal | CallCancel;

/** Something a cancellation cancels (an object, so a call registers itself, not a closure). */
export interface CancelTarget {
  cancel(reason: unknown): void;
}

/** A cancellation made per call; its fields are assigned in the constructor (as `FastCall`'s). */
export class CallCancel {
  declare aborted: boolean;
  declare reason: unknown;
  /** The usual single listener, and any further ones. */
  declare private first: CancelTarget | undefined;
  declare private more: CancelTarget[] | undefined;
  declare private controller: AbortController | undefined;

  constructor() {
    this.aborted = false;
    this.reason = undefined;
    this.first = undefined;
    this.more = undefined;
    this.controller = undefined;
  }

  /** Cancel (once): the reason is what the call fails with, as `AbortController.abort`'s. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const first = this.first;
    const more = this.more;
    this.first = undefined;
    this.more = undefined;
    this.controller?.abort(this.reason);
    first?.cancel(this.reason);
    if (more) for (const target of more) target.cancel(this.reason);
  }

  /** Cancel `target` with the reason when this is aborted (not when it already was). */
  listen(target: CancelTarget): void {
    if (this.aborted) return;
    if (this.first === undefined) this.first = target;
    else (this.more ??= []).push(target);
  }

  unlisten(target: CancelTarget): void {
    if (this.first === target) this.first = undefined;
    else if (this.more) {
      const at = this.more.indexOf(target);
      if (at >= 0) this.more.splice(at, 1);
    }
  }

  /** An `AbortSignal` that follows this cancellation (made on first use). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}

/** The `AbortSignal` of a call signal (the SDK's paths take only those). */
export function abortSignalOf(signal: CallSignal): AbortSignal;
export function abortSignalOf(signal: CallSignal | undefined): AbortSignal | undefined;
export function abortSignalOf(signal: CallSignal | undefined): AbortSignal | undefined {
  return signal instanceof CallCancel ? signal.signal : signal;
}
