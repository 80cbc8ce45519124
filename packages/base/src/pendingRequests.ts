/**
 * The table of requests awaiting a response, the one of mcprt (the SDK's requests to an
 * app-server, the app-server's requests to its clients): allocates incrementing integer ids,
 * settles each from its response, and owns per-request timeouts and abort signals, which reject
 * the request and forget its id. What an error response becomes is the caller's business.
 */

export interface PendingOptions {
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface PendingRequestsOptions {
  /** The first id handed out (default 1). */
  readonly firstId?: number;
  /** What a request that timed out rejects with (default: a plain `Error` naming the method). */
  readonly timeoutError?: (method: string, timeoutMs: number) => Error;
}

export type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

interface Entry {
  readonly method: string;
  readonly settle: (outcome: Outcome) => void;
}

const toError = (value: unknown): Error =>
  value instanceof Error ? value : new Error(String(value));

export class PendingRequests {
  readonly #entries = new Map<number, Entry>();
  readonly #firstId: number;
  readonly #timeoutError: (method: string, timeoutMs: number) => Error;
  #nextId: number;

  constructor(options: PendingRequestsOptions = {}) {
    this.#firstId = options.firstId ?? 1;
    this.#nextId = this.#firstId;
    this.#timeoutError =
      options.timeoutError ??
      ((method, ms) => new Error(`${method} timed out after ${String(ms)} ms`));
  }

  /** Register a request under a fresh id; the promise settles from its response or its end. */
  add(method: string, options: PendingOptions = {}): { id: number; promise: Promise<unknown> } {
    const id = this.#nextId++;
    const { timeoutMs, signal } = options;
    const promise = new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => settle({ ok: false, error: toError(signal?.reason) });
      const settle = (outcome: Outcome): void => {
        this.#entries.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.ok) resolve(outcome.value);
        else reject(outcome.error);
      };
      this.#entries.set(id, { method, settle });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => settle({ ok: false, error: this.#timeoutError(method, timeoutMs) }),
          timeoutMs,
        );
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return { id, promise };
  }

  /**
   * Settle the request `id` answers. Returns false for an id that is not pending: `'late'` when it
   * was issued and already given up on (timeout, abort), `'unknown'` when never issued.
   */
  settle(id: unknown, outcome: Outcome): true | 'late' | 'unknown' {
    const entry = typeof id === 'number' ? this.#entries.get(id) : undefined;
    if (entry === undefined) {
      const issued = typeof id === 'number' && id >= this.#firstId && id < this.#nextId;
      return issued ? 'late' : 'unknown';
    }
    entry.settle(outcome);
    return true;
  }

  /** Reject one pending request (e.g. it could not be sent). */
  reject(id: number, error: unknown): void {
    this.#entries.get(id)?.settle({ ok: false, error });
  }

  /** Reject every pending request, with an error built per request. */
  rejectAll(errorFor: (method: string, id: number) => unknown): void {
    for (const [id, entry] of [...this.#entries]) {
      entry.settle({ ok: false, error: errorFor(entry.method, id) });
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
