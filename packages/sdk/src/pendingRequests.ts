/**
 * The table of requests awaiting a response: allocates incrementing integer ids, settles each
 * from its response (error responses become `ProtocolError`), and owns per-request timeouts and
 * abort signals, which reject the request and forget its id.
 */

import {
  ErrorCode,
  type JsonRpcFailure,
  type JsonRpcSuccess,
  ProtocolError,
  type RequestId,
} from '@mcprt/protocol';

import { RequestTimeoutError } from './errors.js';

interface Entry {
  readonly method: string;
  readonly settle: (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
}

export interface PendingOptions {
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

const toError = (value: unknown): Error =>
  value instanceof Error ? value : new Error(String(value));

/** Rebuild a `ProtocolError` from a received error object, tolerating a malformed one. */
export function toProtocolError(error: unknown): ProtocolError {
  if (typeof error === 'object' && error !== null) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code === 'number' && typeof message === 'string') {
      return new ProtocolError(code, message, data);
    }
  }
  return new ProtocolError(
    ErrorCode.InternalError,
    'app-server sent a malformed error response',
    error,
  );
}

export class PendingRequests {
  readonly #entries = new Map<RequestId, Entry>();
  #nextId = 1;

  /** Register a request under a fresh id; the promise settles from its response or its end. */
  add(method: string, options: PendingOptions): { id: number; promise: Promise<unknown> } {
    const id = this.#nextId++;
    const { timeoutMs, signal } = options;
    const promise = new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => settle({ ok: false, error: toError(signal?.reason) });
      const settle: Entry['settle'] = (outcome) => {
        this.#entries.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.ok) resolve(outcome.value);
        else reject(outcome.error);
      };
      this.#entries.set(id, { method, settle });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => settle({ ok: false, error: new RequestTimeoutError(method, timeoutMs) }),
          timeoutMs,
        );
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return { id, promise };
  }

  /**
   * Settle the request a response answers. Returns false for an id that is not pending: `'late'`
   * when it was issued and already given up on (timeout, abort), `'unknown'` when never issued.
   */
  resolve(message: JsonRpcSuccess | JsonRpcFailure): true | 'late' | 'unknown' {
    const entry = message.id === null ? undefined : this.#entries.get(message.id);
    if (entry === undefined) {
      const issued = typeof message.id === 'number' && message.id > 0 && message.id < this.#nextId;
      return issued ? 'late' : 'unknown';
    }
    if ('error' in message) entry.settle({ ok: false, error: toProtocolError(message.error) });
    else entry.settle({ ok: true, value: message.result });
    return true;
  }

  /** Reject one pending request (e.g. it could not be sent). */
  reject(id: RequestId, error: unknown): void {
    this.#entries.get(id)?.settle({ ok: false, error });
  }

  /** Reject every pending request, with an error built per request. */
  rejectAll(errorFor: (method: string, id: RequestId) => Error): void {
    for (const [id, entry] of [...this.#entries]) {
      entry.settle({ ok: false, error: errorFor(entry.method, id) });
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
