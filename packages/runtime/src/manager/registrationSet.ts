/**
 * A session's registrations: the ordered map of its `Registration`s (thread-wide first, then by
 * the session's environment order), kept in step with where they come from — this machine's
 * config and the environments' own configs (remoteRegistrations.ts) — through ONE `reconcile()`,
 * used both for a config reload and for an environment's config being (re)read: unchanged
 * registrations keep their process, removed ones stop with a status update, changed and new ones
 * get a fresh registration. Also starting them, waiting for startup, replacing one after a login
 * or a lost environment, and the tool inventory over the ready ones (and the restarting or lost
 * ones, under what their server last listed).
 */

import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { McprtConfig } from '../config/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import { UnknownServerError } from '../errors.js';
import { ToolInventory } from '../inventory/inventory.js';
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { EnvironmentWatch } from './environmentWatch.js';
import { LastListings } from './lastListings.js';
import type { Registration } from './registration.js';
import type { RegistrationSource } from './registrationPlan.js';
import type { SourceSelection } from './registrationSources.js';
import { keepsProcessOnReload, sameRegistration, sessionSources } from './registrationSources.js';
import { RemoteRegistrations } from './remoteRegistrations.js';

export interface ReconcileOptions {
  /** Which current registrations this change is about (the others are left alone). */
  readonly governs: (scope: RegistrationScope) => boolean;
  /** Whether `current` may stay (its source is updated in place) instead of `candidate`. */
  readonly keep: (current: Registration, candidate: Registration) => boolean;
}

export interface RegistrationSetOptions {
  readonly selection: SourceSelection;
  /** Makes a registration (with the session's context and hooks) in an environment registry. */
  readonly build: (source: RegistrationSource, registry: EnvironmentRegistry) => Registration;
  /** An environment's own config was read (`error`: why it could not be). */
  readonly onEnvironmentRead: (environmentId: string, error: string | null) => void;
}

export class RegistrationSet {
  /** Registrations contributed by environments' own configs (ssh: the remote host's). */
  readonly remote = new RemoteRegistrations((id) => this.environmentRead(id));
  readonly watch = new EnvironmentWatch(this);
  /** What each registration last listed besides tools, for `standsIn` registrations. */
  readonly listings = new LastListings();
  private readonly byKey = new Map<string, Registration>();
  private inventoryCache: ToolInventory | null = null;
  private startedAll = false;
  private closed = false;

  constructor(
    private config: McprtConfig,
    private registryValue: EnvironmentRegistry,
    private readonly options: RegistrationSetOptions,
  ) {
    for (const source of this.sources())
      this.byKey.set(scopeKey(source.config.scope), options.build(source, registryValue));
    this.watch.follow(registryValue);
  }

  /** The environment registry in force (it changes with a reload). */
  get registry(): EnvironmentRegistry {
    return this.registryValue;
  }

  values(): Registration[] {
    return [...this.byKey.values()];
  }

  scopes(): RegistrationScope[] {
    return this.values().map((r) => r.scope);
  }

  find(scope: RegistrationScope): Registration | undefined {
    return this.byKey.get(scopeKey(scope));
  }

  get(scope: RegistrationScope): Registration {
    const reg = this.find(scope);
    if (!reg) throw new UnknownServerError(scope.name, scope.environmentId);
    return reg;
  }

  /** True while `reg` is the registration of its scope (not replaced or removed). */
  isCurrent(reg: Registration): boolean {
    return this.byKey.get(scopeKey(reg.scope)) === reg;
  }

  /** Read the environments' own configs and start every enabled registration (idempotent). */
  startAll(): void {
    this.startedAll = true;
    this.remote.read(this.registryValue, this.options.selection.environmentOrder);
    for (const reg of this.byKey.values()) void reg.start();
  }

  /** Start everything and wait until the registrations (`which`) have settled; returns them. */
  async settle(which: (reg: Registration) => boolean): Promise<Registration[]> {
    this.startAll();
    await this.remote.settled();
    const regs = this.values().filter(which);
    await Promise.all(regs.map((r) => r.settled()));
    return regs;
  }

  /** A reload: the new config and registry, applied through `reconcile`; then start. */
  async apply(config: McprtConfig, registry: EnvironmentRegistry): Promise<void> {
    const previous = this.registryValue;
    this.config = config;
    this.registryValue = registry;
    this.watch.follow(registry);
    this.remote.read(registry, this.options.selection.environmentOrder, true);
    const { stops } = this.reconcile({
      governs: () => true,
      keep: (current, candidate) => keepsProcessOnReload(current, candidate, previous, registry),
    });
    await Promise.all(stops);
    this.invalidate();
    this.startAll();
  }

  /** A fresh registration of `reg`'s source takes its place (the caller stops `reg`). */
  replace(reg: Registration): Registration {
    const fresh = this.options.build(reg.source, this.registryValue);
    this.byKey.set(scopeKey(reg.scope), fresh);
    this.invalidate();
    return fresh;
  }

  /** Credentials of `scope` changed: its registration reconnects, nothing else restarts. */
  async restart(scope: RegistrationScope): Promise<void> {
    const current = this.find(scope);
    if (!current || this.closed) return;
    const wasStarted = current.status.startupStatus !== null;
    const fresh = this.replace(current);
    this.watch.forget(current);
    await current.stop();
    if (wasStarted || this.startedAll) await fresh.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watch.stop();
    await Promise.all(this.values().map((r) => r.stop()));
  }

  /**
   * The tool inventory of the ready registrations — and of restarting ones, under the tools
   * their server last listed (`Registration.tools`), so a crash does not drop them from listings
   * for the length of a restart, and of ones lost with their environment, whose next use revives
   * them (`listedTools`); cached until something changes.
   */
  inventory(): ToolInventory {
    // Tools whose `ttlMs` has passed are listed again (in the background; 2026-07-28).
    for (const r of this.byKey.values()) r.live?.revalidate();
    this.inventoryCache ??= new ToolInventory(
      // The policy is the registration's current config (a reload updates it in place).
      this.values().flatMap((r) => {
        const tools = this.listedTools(r);
        const config = r.config;
        return tools && config ? [{ scope: r.scope, policy: config, tools }] : [];
      }),
    );
    return this.inventoryCache;
  }

  invalidate(): void {
    this.inventoryCache = null;
  }

  /**
   * Whether `reg` is listed under what its server last listed rather than live: it is restarting,
   * or was lost with its environment (the same stand-in as its tools in `inventory()`).
   */
  standsIn(reg: Registration): boolean {
    return reg.live === null && this.listedTools(reg) !== null;
  }

  /** The tools listed for `reg`: its own, or — lost with its environment — its last ones. */
  private listedTools(reg: Registration): readonly ToolDefinition[] | null {
    return reg.tools ?? this.watch.listedTools(reg);
  }

  /**
   * An environment's own config was (re)read: add, replace or remove that environment's
   * registrations only (others, and unchanged ones, are left alone).
   */
  private environmentRead(environmentId: string): void {
    if (this.closed) return;
    this.options.onEnvironmentRead(environmentId, this.remote.error(environmentId));
    const { stops, added } = this.reconcile({
      governs: (scope) => scope.environmentId === environmentId,
      keep: sameRegistration,
    });
    void Promise.all(stops);
    if (this.startedAll) for (const reg of added) void reg.start();
  }

  /**
   * Apply the session's sources to the registrations `governs` selects: removed ones stop with a
   * status update, unchanged ones (`keep`) stay with their process, changed and new ones get a
   * fresh registration; then the order is restored. Returns the stops under way and the
   * registrations added (not started).
   */
  private reconcile(options: ReconcileOptions): { stops: Promise<void>[]; added: Registration[] } {
    const ordered = this.sources();
    const next = new Map(
      ordered
        .filter((s) => options.governs(s.config.scope))
        .map((s) => [scopeKey(s.config.scope), s] as const),
    );
    const stops: Promise<void>[] = [];
    for (const [key, reg] of this.byKey) {
      if (!options.governs(reg.scope) || next.has(key)) continue;
      this.byKey.delete(key);
      stops.push(
        reg.stop({
          status: 'cancelled',
          error: `MCP server \`${reg.label}\` was removed from the configuration`,
          kind: 'removed',
        }),
      );
    }
    const added: Registration[] = [];
    for (const [key, source] of next) {
      const current = this.byKey.get(key);
      const candidate = this.options.build(source, this.registryValue);
      if (current && options.keep(current, candidate)) {
        current.source = source;
        continue;
      }
      if (current) stops.push(current.stop());
      this.byKey.set(key, candidate);
      added.push(candidate);
    }
    this.restoreOrder(ordered);
    this.invalidate();
    return { stops, added };
  }

  private sources(): RegistrationSource[] {
    return sessionSources(this.config, this.remote.sources(), this.options.selection);
  }

  private restoreOrder(ordered: readonly RegistrationSource[]): void {
    const byKey = new Map(this.byKey);
    this.byKey.clear();
    for (const s of ordered) {
      const key = scopeKey(s.config.scope);
      const reg = byKey.get(key);
      if (reg) this.byKey.set(key, reg);
      byKey.delete(key);
    }
    for (const [key, reg] of byKey) this.byKey.set(key, reg);
  }
}
