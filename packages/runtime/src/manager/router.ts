/**
 * Routing a request to a live registration: `(server, environmentId?)` is resolved by the brief's
 * routing table (routing/resolve.ts) — after reading the environments' own configs the request may
 * land in — a registration lost with its environment is revived, a restarting one is waited for
 * (`restart_wait_sec`, across restart attempts), and anything not ready is a
 * `ServerUnavailableError` saying why (with the registration's scope, for the call's history).
 */

import type { ServerConnection } from '../connection/connection.js';
import { ServerUnavailableError, SessionClosedError } from '../errors.js';
import { resolveScope } from '../routing/resolve.js';
import type { RegistrationScope } from '../scope.js';
import type { Registration } from './registration.js';
import type { RegistrationSet } from './registrationSet.js';

export interface RouterContext {
  readonly threadId: string;
  readonly registrations: RegistrationSet;
  /** The session's selected environments, in order. */
  readonly selected: () => readonly string[];
  readonly closed: () => boolean;
}

/** A ready registration and its live connection. */
export interface LiveTarget {
  readonly reg: Registration;
  readonly connection: ServerConnection;
}

export class Router {
  constructor(private readonly ctx: RouterContext) {}

  /** Select one registration by name and optional environment (the brief's routing table). */
  /** The session is closing or closed (its calls end because of it, not of their servers). */
  isClosed(): boolean {
    return this.ctx.closed();
  }

  resolve(server: string, environmentId?: string | null): RegistrationScope {
    return resolveScope(
      {
        threadId: this.ctx.threadId,
        scopes: this.ctx.registrations.scopes(),
        isConfiguredEnvironment: (id) => this.ctx.registrations.registry.has(id),
        selectedEnvironments: this.ctx.selected(),
      },
      server,
      environmentId,
    );
  }

  /**
   * `live` without waiting, in its most common case: a name-only request whose thread-wide
   * registration is ready (no environment to read, nothing to wait for, and the routing table
   * picks the thread-wide registration first). Null: use `live`.
   */
  ready(server: string, environmentId?: string | null): LiveTarget | null {
    if ((environmentId !== undefined && environmentId !== null) || this.ctx.closed()) return null;
    const { registrations } = this.ctx;
    const reg = registrations.find({ environmentId: null, name: server });
    if (reg === undefined || registrations.watch.isLost(reg) || reg.restarting) return null;
    const connection = reg.live;
    return connection !== null && reg.enabled ? { reg, connection } : null;
  }

  /** The registration a request reaches, started and ready; throws why when it is not. */
  async live(server: string, environmentId?: string | null): Promise<LiveTarget> {
    if (this.ctx.closed()) throw new SessionClosedError(this.ctx.threadId);
    await this.readEnvironmentsFor(server, environmentId);
    const resolved = this.ctx.registrations.get(this.resolve(server, environmentId));
    const reg = this.ctx.registrations.watch.revived(resolved);
    if (!reg.enabled)
      throw new ServerUnavailableError(
        reg.label,
        reg.notSelectedReason ?? 'it is disabled in the configuration',
        reg.scope,
      );
    if (reg.restarting) {
      await restarted(reg);
      const live = reg.live;
      if (!live) {
        const status = reg.status;
        const why = status.error ?? status.connectionStatus;
        throw new ServerUnavailableError(
          reg.label,
          reg.restarting ? `it is restarting: ${why}` : why,
          reg.scope,
        );
      }
      return { reg, connection: live };
    }
    await reg.start();
    const live = reg.live;
    if (!live) {
      const status = reg.status;
      throw new ServerUnavailableError(
        reg.label,
        status.error ?? status.connectionStatus,
        reg.scope,
      );
    }
    return { reg, connection: live };
  }

  /** Before routing a request: make sure the environments it may land in have been read. */
  private async readEnvironmentsFor(server: string, environmentId?: string | null): Promise<void> {
    const { registrations } = this.ctx;
    const { remote, registry } = registrations;
    const selected = this.ctx.selected();
    const has = (env: string | null) =>
      registrations.scopes().some((s) => s.name === server && s.environmentId === env);
    if (environmentId !== undefined && environmentId !== null) {
      const ids = selected.filter((id) => id === environmentId);
      remote.read(registry, ids);
      await remote.settled(ids);
      return;
    }
    if (has(null)) return;
    // Legacy routing: only the environments up to the first one that has the name matter.
    for (const id of selected) {
      remote.read(registry, [id]);
      await remote.settled([id]);
      if (has(id)) return;
    }
  }
}

/**
 * A call made while the server restarts waits a bounded time (restart_wait_sec) for it to be
 * ready — across restart attempts: one that fails schedules the next, which is waited for too —
 * and stops waiting as soon as the registration is ready or has failed for good.
 */
async function restarted(reg: Registration): Promise<void> {
  const deadline = Date.now() + (reg.config?.supervision.restartWaitMs ?? 0);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now())).unref();
  });
  try {
    let attempt: Promise<void> | null = null;
    // Each attempt once: an attempt that settled without a next one ends the wait.
    while (reg.restarting && Date.now() < deadline && reg.start() !== attempt) {
      attempt = reg.start();
      await Promise.race([attempt, timeout]);
    }
  } finally {
    clearTimeout(timer);
  }
}
