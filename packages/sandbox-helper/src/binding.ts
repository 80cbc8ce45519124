/**
 * Binding what outlives one call to the authority that created it. A long-lived worker or a
 * cached result made under one sandbox state must not serve a call issued under another:
 * `AuthorityBound.use` rejects reuse when the authority changed, `AuthoritySlot` holds one
 * long-lived resource and rebuilds it (disposing the old one) when a call's authority differs,
 * and `AuthorityCache` returns a cached value only to calls with the authority it was made under.
 */

import type { SandboxAuthority } from './authority.js';

export class AuthorityChangedError extends Error {
  readonly code = 'sandbox_authority_changed';
  constructor(what: string) {
    super(`${what} was created under a different sandbox authority and cannot be reused`);
    this.name = 'AuthorityChangedError';
  }
}

const idOf = (authority: SandboxAuthority | null): string | null => authority?.id ?? null;

/** A value together with the authority it was created under. */
export class AuthorityBound<T> {
  constructor(
    readonly authority: SandboxAuthority | null,
    readonly value: T,
    private readonly what = 'this resource',
  ) {}

  /** The value, for a call with this authority; throws {@link AuthorityChangedError} otherwise. */
  use(current: SandboxAuthority | null): T {
    if (idOf(current) !== idOf(this.authority)) throw new AuthorityChangedError(this.what);
    return this.value;
  }
}

export interface SlotResult<T> {
  readonly value: T;
  /** A new value was created for this call. */
  readonly created: boolean;
  /** An existing value was rejected (its authority differed) and disposed first. */
  readonly replaced: boolean;
}

/** One long-lived resource (a worker process, a connection) bound to its authority. */
export class AuthoritySlot<T> {
  private bound: AuthorityBound<T> | null = null;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly create: (authority: SandboxAuthority | null) => T | Promise<T>,
    private readonly dispose: (value: T) => void | Promise<void>,
    private readonly what = 'the worker',
  ) {}

  /** The resource for this call's authority: reused when unchanged, else rebuilt. */
  get(authority: SandboxAuthority | null): Promise<SlotResult<T>> {
    const next = this.pending.then(() => this.acquire(authority));
    this.pending = next.catch(() => undefined);
    return next;
  }

  /** Forget the resource (e.g. it died) without disposing it. */
  clear(): void {
    this.bound = null;
  }

  async close(): Promise<void> {
    await this.pending;
    const bound = this.bound;
    this.bound = null;
    if (bound !== null) await this.dispose(bound.value);
  }

  private async acquire(authority: SandboxAuthority | null): Promise<SlotResult<T>> {
    let replaced = false;
    if (this.bound !== null) {
      try {
        return { value: this.bound.use(authority), created: false, replaced: false };
      } catch (error) {
        if (!(error instanceof AuthorityChangedError)) throw error;
        const stale = this.bound;
        this.bound = null;
        replaced = true;
        await this.dispose(stale.value);
      }
    }
    const value = await this.create(authority);
    this.bound = new AuthorityBound(authority, value, this.what);
    return { value, created: true, replaced };
  }
}

/** Cached results keyed by `K`, each valid only for the authority it was computed under. */
export class AuthorityCache<K, V> {
  private readonly entries = new Map<K, AuthorityBound<V>>();

  /** The cached value for this authority; an entry made under another one is dropped. */
  get(key: K, authority: SandboxAuthority | null): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    try {
      return entry.use(authority);
    } catch (error) {
      if (!(error instanceof AuthorityChangedError)) throw error;
      this.entries.delete(key);
      return undefined;
    }
  }

  set(key: K, authority: SandboxAuthority | null, value: V): void {
    this.entries.set(key, new AuthorityBound(authority, value, 'a cached result'));
  }

  get size(): number {
    return this.entries.size;
  }
}
