/**
 * Environment health as a session sees it: the session follows every environment that holds a
 * connection (ssh); when one is lost, its ready servers fail at once, naming the environment, and
 * are marked lost — as are servers that failed to start because their environment was down. The
 * next use of a lost server revives it (a fresh registration, which reconnects).
 */

import type { EnvironmentRegistry } from '../environments/registry.js';
import type { Registration } from './registration.js';
import type { RegistrationSet } from './registrationSet.js';

export class EnvironmentWatch {
  private readonly lost = new WeakSet<Registration>();
  private unwatch: (() => void)[] = [];

  constructor(private readonly registrations: RegistrationSet) {}

  /** Follow the health of `registry`'s environments (replacing what was followed before). */
  follow(registry: EnvironmentRegistry): void {
    this.stop();
    for (const id of registry.configuredIds) {
      const off = registry.get(id)?.onHealthChange?.((health) => {
        if (health.state === 'disconnected' && health.error !== null) {
          this.environmentLost(id, health.error);
        }
      });
      if (off) this.unwatch.push(off);
    }
  }

  stop(): void {
    for (const off of this.unwatch.splice(0)) off();
  }

  /** A startup settled: one that failed while its environment was down is lost with it. */
  startupSettled(reg: Registration, registry: EnvironmentRegistry): void {
    if (reg.status.startupStatus !== 'failed') return;
    const envId = reg.config?.executionEnvironmentId;
    if (envId !== undefined && registry.get(envId)?.health?.().state === 'disconnected') {
      this.lost.add(reg);
    }
  }

  /** Whether `reg` was lost with its environment (its next use revives it). */
  isLost(reg: Registration): boolean {
    return this.lost.has(reg);
  }

  /** Before use: a lost registration is replaced by a fresh one (which reconnects). */
  revived(reg: Registration): Registration {
    if (!this.lost.has(reg)) return reg;
    this.lost.delete(reg);
    return this.registrations.replace(reg);
  }

  forget(reg: Registration): void {
    this.lost.delete(reg);
  }

  /** The environment's connection is gone: its live servers fail, naming the environment. */
  private environmentLost(environmentId: string, error: string): void {
    for (const reg of this.registrations.values()) {
      if (reg.config?.executionEnvironmentId !== environmentId) continue;
      if (reg.state.kind !== 'ready') continue;
      this.lost.add(reg);
      void reg.stop({
        status: 'failed',
        error: `MCP server \`${reg.label}\` stopped: ${error}`,
        kind: 'crashed',
      });
    }
  }
}
