/**
 * A tiny ordered handler set, the one of mcprt: `add` returns its own unsubscribe, `emit` calls a
 * snapshot so a handler may unsubscribe itself (or others) while being called.
 */

/** Removes a handler registered with `add`. */
export type Unsubscribe = () => void;

export class Listeners<A extends unknown[]> {
  readonly #handlers = new Set<{ readonly fn: (...args: A) => void }>();

  /** Register a handler; the same function may be registered twice and is then called twice. */
  add(fn: (...args: A) => void): Unsubscribe {
    const entry = { fn };
    this.#handlers.add(entry);
    return () => {
      this.#handlers.delete(entry);
    };
  }

  emit(...args: A): void {
    for (const entry of [...this.#handlers]) entry.fn(...args);
  }

  get size(): number {
    return this.#handlers.size;
  }

  clear(): void {
    this.#handlers.clear();
  }
}
