/**
 * Environment health as a session sees it: the session follows every environment that holds a
 * connection (ssh); when one is lost, its ready servers fail at once, naming the environment, and
 * are marked lost — as are servers whose startup or restart fails because their environment was
 * down or lost meanwhile. The next use of a lost server revives it (a fresh registration, which
 * reconnects). Until it is back (or fails for another reason) the inventory keeps listing the
 * tools its server last listed (and its resources and prompts, lastListings.ts), so that next use
 * can come through a list (`mcprt serve`).
 */

import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import type { Registration } from './registration.js';
import type { RegistrationSet } from './registrationSet.js';

type Tools = readonly ToolDefinition[];

export class EnvironmentWatch {
  private readonly lost = new WeakSet<Registration>();
  /** Startups and restarts under way when their environment was lost (a failure is a loss). */
  private readonly cutOff = new WeakSet<Registration>();
  /** The last tools of a lost server, listed until its revival is ready or fails otherwise. */
  private readonly lastTools = new WeakMap<Registration, Tools>();
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

  /**
   * A startup (or restart) settled. One that failed while its environment was down — or that
   * was under way when the environment's connection was lost, even if a reconnect has begun
   * since — is lost with it; one that is ready lists its own tools again.
   */
  startupSettled(reg: Registration, registry: EnvironmentRegistry): void {
    const status = reg.status.startupStatus;
    if (status === 'starting') return;
    const cutOff = this.cutOff.has(reg);
    this.cutOff.delete(reg);
    if (status !== 'failed') {
      this.lastTools.delete(reg);
      return;
    }
    const envId = reg.config?.executionEnvironmentId;
    const down = envId !== undefined && registry.get(envId)?.health?.().state === 'disconnected';
    if (cutOff || down) this.lost.add(reg);
    if (!this.lost.has(reg)) this.lastTools.delete(reg);
  }

  /** Whether `reg` was lost with its environment (its next use revives it). */
  isLost(reg: Registration): boolean {
    return this.lost.has(reg);
  }

  /** Tools to list for `reg` while it is lost or being revived (null: none). */
  listedTools(reg: Registration): Tools | null {
    return this.lastTools.get(reg) ?? null;
  }

  /** Before use: a lost registration is replaced by a fresh one (which reconnects). */
  revived(reg: Registration): Registration {
    if (!this.lost.has(reg)) return reg;
    this.lost.delete(reg);
    const tools = this.lastTools.get(reg);
    this.lastTools.delete(reg);
    const fresh = this.registrations.replace(reg);
    if (tools !== undefined) this.lastTools.set(fresh, tools);
    this.registrations.listings.carry(reg, fresh);
    return fresh;
  }

  forget(reg: Registration): void {
    this.lost.delete(reg);
    this.cutOff.delete(reg);
    this.lastTools.delete(reg);
  }

  /**
   * The environment's connection is gone: its live servers fail, naming the environment; those
   * starting or restarting are cut off (their failure is the loss, see `startupSettled`).
   */
  private environmentLost(environmentId: string, error: string): void {
    for (const reg of this.registrations.values()) {
      if (reg.config?.executionEnvironmentId !== environmentId) continue;
      const tools = reg.tools;
      if (tools !== null) this.lastTools.set(reg, tools);
      if (reg.state.kind === 'starting' || reg.state.kind === 'reconnecting') this.cutOff.add(reg);
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
