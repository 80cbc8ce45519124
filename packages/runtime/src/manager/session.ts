/**
 * A session (an app-server "thread"): the selected environments with their cwds, and one
 * registration per enabled server in scope — thread-wide servers plus servers contributed by the
 * selected environments. Starts them all concurrently, reports status per scope, routes tool
 * calls and resource reads by `(name, environmentId?)`, applies config reloads without
 * restarting unchanged servers, and shuts everything down.
 */

import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';

import type { McprtConfig } from '../config/types.js';
import type { ElicitationHandler, ElicitationRequest } from '../elicitation/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import { RemoteRegistrations } from './remoteRegistrations.js';
import type { HistorySink } from '../history/types.js';
import {
  RequestFailedError,
  RequiredServersError,
  ServerUnavailableError,
  SessionClosedError,
  ToolDisabledError,
  UnknownServerError,
} from '../errors.js';
import { ToolInventory } from '../inventory/inventory.js';
import type { InventoryTool } from '../inventory/inventory.js';
import { isToolEnabled } from '../inventory/toolFilter.js';
import { resolveScope } from '../routing/resolve.js';
import { sandboxTarget, SessionSandbox } from '../sandbox/sessionSandbox.js';
import type { SandboxAuthority } from '../sandbox/sessionSandbox.js';
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { ElicitationRelay } from './elicitations.js';
import type { ToolCallCompleted, ToolCallProgress, ToolCallStarted } from './toolCallEvents.js';
import { isPlainObjectOrAbsent, ToolCallTracker, withThreadId } from './toolCalls.js';
import { Registration } from './registration.js';
import type { RegistrationSource } from './registration.js';
import type { RuntimeAuth } from '../auth/runtimeAuth.js';
import { collectStatus } from './statusView.js';
import type { SkillFileRequest } from '../skills/types.js';
import type { ServerStatus, StartupStatusEvent, StartupSummary } from './status.js';

export interface SessionEnvironment {
  readonly environmentId: string;
  readonly cwd: string | null;
}

export interface SessionOptions {
  readonly threadId?: string;
  /** The session's local cwd (relative local `cwd`s resolve against it). */
  readonly cwd?: string | null;
  /**
   * Selected environments in order (the legacy routing order). Default: every configured
   * environment in config order, each with its configured cwd, else the session cwd.
   */
  readonly environments?: readonly SessionEnvironment[];
  /** Include only the registrations this returns true for. */
  readonly filter?: (scope: RegistrationScope) => boolean;
  /** Answers servers' elicitation requests; without one, every request is declined at once. */
  readonly onElicitation?: ElicitationHandler;
  /**
   * Start nothing up front: each registration starts on first use (a tool call, a resource
   * read, `start()` or `ready()`). The CLI's `call` uses this to start only its target.
   */
  readonly lazy?: boolean;
  /**
   * The thread's sandbox state: an opaque JSON value sent to servers that advertise
   * `codex/sandbox-state` exactly as given (see docs/sandbox.md). Change it with
   * `setSandboxState`.
   */
  readonly sandboxState?: unknown;
}

export interface ToolCallRequest {
  readonly server: string;
  readonly tool: string;
  readonly environmentId?: string | null;
  readonly arguments?: Record<string, unknown>;
  /** Request `_meta`: an object is sent with `threadId` set; anything else is forwarded as is. */
  readonly meta?: unknown;
  readonly signal?: AbortSignal;
  /** Call id used in events and history (default: a fresh UUID). */
  readonly callId?: string;
  /** Overrides the registration's `tool_timeout_sec`. */
  readonly timeoutMs?: number;
  /**
   * The issuing host's own sandbox authority for this call, used instead of the thread's state
   * (see docs/sandbox.md §5). Only the host sets it — never a model or a tool argument. A
   * missing or null `state` means none was given: the thread's state applies.
   */
  readonly sandboxAuthority?: SandboxAuthority;
  readonly onProgress?: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
}

export interface SessionEvents {
  startupStatus: [StartupStatusEvent];
  inventoryChanged: [{ scope: RegistrationScope }];
  toolCallStarted: [ToolCallStarted];
  toolCallProgress: [ToolCallProgress];
  toolCallCompleted: [ToolCallCompleted];
  /** An environment's own config was read (error: why it could not be, naming it). */
  environmentRegistrations: [{ environmentId: string; error: string | null }];
}

export interface SessionContext {
  readonly processEnv: NodeJS.ProcessEnv;
  /** Where tool calls are recorded (none: not recorded). */
  readonly history?: HistorySink | null;
  /** Called once when the session closes (the runtime forgets it). */
  readonly onClose?: (session: Session) => void;
  /** OAuth credentials (HTTP transports authenticate with them; status shows `authStatus`). */
  readonly auth?: RuntimeAuth;
}

export class Session extends EventEmitter<SessionEvents> {
  readonly threadId: string;
  readonly environments: readonly SessionEnvironment[];
  private readonly cwd: string | null;
  private readonly registrations = new Map<string, Registration>();
  private inventoryCache: ToolInventory | null = null;
  private closed = false;
  private registry: EnvironmentRegistry;
  private readonly elicitations: ElicitationRelay;
  private readonly calls: ToolCallTracker;
  private readonly sandbox: SessionSandbox;
  private config: McprtConfig;
  private startedAll = false;
  /** Registrations contributed by environments' own configs (ssh: the remote host's). */
  private readonly remote = new RemoteRegistrations((id) => this.applyRemote(id));
  /** Registrations that failed because their environment's connection was down or lost. */
  private readonly lost = new WeakSet<Registration>();
  private unwatch: (() => void)[] = [];

  constructor(
    config: McprtConfig,
    registry: EnvironmentRegistry,
    private readonly ctx: SessionContext,
    private readonly options: SessionOptions = {},
  ) {
    super();
    this.registry = registry;
    this.config = config;
    this.threadId = options.threadId ?? randomUUID();
    this.elicitations = new ElicitationRelay(this.threadId, options.onElicitation ?? null);
    this.calls = new ToolCallTracker(this.threadId, ctx.history ?? null, {
      started: (e) => this.emit('toolCallStarted', e),
      progress: (e) => this.emit('toolCallProgress', e),
      completed: (e) => this.emit('toolCallCompleted', e),
    });
    this.cwd = options.cwd ?? null;
    this.sandbox = new SessionSandbox(options.sandboxState, config.sandboxLauncher);
    this.environments =
      options.environments ??
      registry.configuredIds.map((id) => ({
        environmentId: id,
        cwd: registry.get(id)?.defaultCwd ?? this.cwd,
      }));
    for (const source of this.sourcesFor(config)) this.add(source);
    this.watchEnvironments();
  }

  /** The thread's current sandbox state (the host's value itself), or undefined when none. */
  get sandboxState(): unknown {
    return this.sandbox.state;
  }

  /** Replace the sandbox state for tool calls issued from now on (`null` clears it). */
  setSandboxState(state: unknown): void {
    this.sandbox.setState(state);
  }

  /** Set (or clear) the handler for servers' elicitation requests. */
  setElicitationHandler(handler: ElicitationHandler | null): void {
    this.elicitations.setHandler(handler);
  }

  /** Elicitation requests currently waiting for the host's answer. */
  pendingElicitations(): ElicitationRequest[] {
    return this.elicitations.list();
  }

  /** Start every enabled registration concurrently (idempotent). */
  start(): this {
    this.startedAll = true;
    this.remote.read(this.registry, this.selectedIds());
    for (const reg of this.registrations.values()) void reg.start();
    return this;
  }

  /** Why the environment's own config (ssh: the remote `~/.mcprt/config.toml`) was not read. */
  registrationsError(environmentId: string): string | null {
    return this.remote.error(environmentId);
  }

  /**
   * Wait until every registration (or, with `requiredOnly`, every required one) has settled;
   * then enforce `required`. Rejects with `RequiredServersError` (Codex's aggregated message)
   * when a required server did not start.
   */
  async ready(options: { requiredOnly?: boolean } = {}): Promise<StartupSummary> {
    this.start();
    await this.remote.settled();
    const waitFor = [...this.registrations.values()].filter(
      (r) => !options.requiredOnly || (r.required && r.enabled),
    );
    await Promise.all(waitFor.map((r) => r.settled()));
    const regs = waitFor.filter((r) => r.enabled);
    const failedRequired = regs
      .filter((r) => r.required && r.startupStatus !== 'ready')
      .sort((a, b) => a.label.localeCompare(b.label))
      .map((r) => ({
        label: r.label,
        error: r.error ?? `required MCP server \`${r.label}\` was not initialized`,
      }));
    if (failedRequired.length > 0) throw new RequiredServersError(failedRequired);
    return {
      ready: regs.filter((r) => r.startupStatus === 'ready').map((r) => r.scope),
      failed: regs
        .filter((r) => r.startupStatus === 'failed')
        .map((r) => ({ scope: r.scope, error: r.error ?? 'failed' })),
      cancelled: regs.filter((r) => r.startupStatus === 'cancelled').map((r) => r.scope),
    };
  }

  /** Every registration of this session, in order: thread-wide first, then by environment. */
  scopes(): RegistrationScope[] {
    return [...this.registrations.values()].map((r) => r.scope);
  }

  /**
   * Status of every registration; `serverName` / `environmentId` narrow it. With only
   * `environmentId`, every registration of that scope is returned.
   */
  listStatus(filter: { serverName?: string; environmentId?: string | null } = {}): ServerStatus[] {
    const inventory = this.inventory();
    return [...this.registrations.values()]
      .filter((r) => filter.serverName === undefined || r.scope.name === filter.serverName)
      .filter(
        (r) => filter.environmentId === undefined || r.scope.environmentId === filter.environmentId,
      )
      .map((r) => collectStatus(r, inventory.forScope(r.scope), this.ctx.auth));
  }

  /** Select one registration by name and optional environment (the brief's routing table). */
  resolve(server: string, environmentId?: string | null): RegistrationScope {
    return resolveScope(
      {
        threadId: this.threadId,
        scopes: this.scopes(),
        isConfiguredEnvironment: (id) => this.registry.has(id),
        selectedEnvironments: this.environments.map((e) => e.environmentId),
      },
      server,
      environmentId,
    );
  }

  status(server: string, environmentId?: string | null): ServerStatus {
    const reg = this.registration(this.resolve(server, environmentId));
    return collectStatus(reg, this.inventory().forScope(reg.scope), this.ctx.auth);
  }

  /** Model-visible tools of every connected registration. */
  tools(): readonly InventoryTool[] {
    return this.inventory().tools;
  }

  /**
   * Call a tool of one registration. Emits `toolCallStarted`/`toolCallProgress`/
   * `toolCallCompleted` and records the call in history. The MCP result is returned unchanged
   * (also with `isError: true`); transport failures, timeouts and cancellation reject.
   */
  async callTool(request: ToolCallRequest) {
    // The thread's state when the call is issued (or the host's own authority for this call).
    const authority = this.sandbox.capture(request.sandboxAuthority);
    const reg = await this.liveRegistration(request.server, request.environmentId);
    const config = reg.config!;
    if (!isToolEnabled(config, request.tool)) throw new ToolDisabledError(request.tool, reg.label);
    let connection = reg.connection!;
    const call = this.calls.begin(reg.scope, request);
    try {
      const target = sandboxTarget(config, connection.capabilities);
      const meta = await authority.meta(target, withThreadId(request.meta, this.threadId));
      const args = authority.arguments(request.arguments);
      const invoke = () =>
        connection.callTool(request.tool, args, {
          timeoutMs: request.timeoutMs ?? config.toolTimeoutMs,
          meta,
          ...(request.signal ? { signal: request.signal } : {}),
          // A progress token lives in `_meta`; a non-object `_meta` is forwarded untouched, so no
          // progress is requested for it.
          ...(isPlainObjectOrAbsent(meta)
            ? {
                onProgress: (p: {
                  progress: number;
                  total?: number | undefined;
                  message?: string | undefined;
                }) => {
                  call.progress(p);
                  request.onProgress?.(p);
                },
              }
            : {}),
        });
      let result;
      try {
        result = await invoke();
      } catch (error) {
        // An HTTP server that lost our session (restarted: 404 / session not found) never ran
        // the call: re-initialize once and send it again.
        if (!isSessionLost(error)) throw error;
        connection = await reg.reconnect(connection, 'the server no longer knows our HTTP session');
        result = await invoke();
      }
      await call.finish(result as Record<string, unknown>, null, request.signal);
      return result;
    } catch (error) {
      const failure = await this.describeCallFailure('tools/call', reg.label, connection, error);
      await call.finish(null, failure.message, request.signal);
      throw failure;
    }
  }

  /** Call a tool by its model-visible name (`mcp__server__tool`). */
  async callModelTool(modelName: string, args?: Record<string, unknown>, signal?: AbortSignal) {
    const entry = this.inventory().findByModelName(modelName);
    if (!entry) throw new UnknownServerError(modelName, null);
    return this.callTool({
      server: entry.scope.name,
      environmentId: entry.scope.environmentId,
      tool: entry.tool.name,
      ...(args ? { arguments: args } : {}),
      ...(signal ? { signal } : {}),
    });
  }

  /**
   * Resources of every ready registration (or of one: `server` + optional `environmentId`, the
   * usual routing), fetched live page by page. A server that fails (e.g. `resources/list
   * returned duplicate cursor`) is left out and reported in `errors`; the others are listed.
   */
  async listResources(filter: { server?: string; environmentId?: string | null } = {}) {
    return this.collectLive(filter, (c, timeoutMs) => c.listAllResources({ timeoutMs }));
  }

  /** Resource templates, as `listResources`. */
  async listResourceTemplates(filter: { server?: string; environmentId?: string | null } = {}) {
    return this.collectLive(filter, (c, timeoutMs) => c.listAllResourceTemplates({ timeoutMs }));
  }

  /** Prompts, as `listResources` (a server without the prompts capability lists none). */
  async listPrompts(filter: { server?: string; environmentId?: string | null } = {}) {
    return this.collectLive(filter, (c, timeoutMs) => c.listAllPrompts({ timeoutMs }));
  }

  /** `prompts/get` on one registration (the usual routing); the result is returned unchanged. */
  async getPrompt(request: {
    server: string;
    name: string;
    environmentId?: string | null;
    arguments?: Record<string, string>;
    signal?: AbortSignal;
  }) {
    const reg = await this.liveRegistration(request.server, request.environmentId);
    try {
      return await reg.connection!.getPrompt(
        request.name,
        request.arguments,
        reg.config!.toolTimeoutMs,
        request.signal,
      );
    } catch (error) {
      throw requestFailed('prompts/get', reg.label, error);
    }
  }

  private async collectLive<T>(
    filter: { server?: string; environmentId?: string | null },
    fetch: (connection: NonNullable<Registration['connection']>, timeoutMs: number) => Promise<T[]>,
  ): Promise<{
    data: { scope: RegistrationScope; items: T[] }[];
    errors: { scope: RegistrationScope; error: string }[];
  }> {
    const regs =
      filter.server !== undefined
        ? [await this.liveRegistration(filter.server, filter.environmentId)]
        : [...this.registrations.values()].filter(
            (r) => r.connection && r.startupStatus === 'ready',
          );
    const settled = await Promise.allSettled(
      regs.map((r) => fetch(r.connection!, r.config!.toolTimeoutMs)),
    );
    const data: { scope: RegistrationScope; items: T[] }[] = [];
    const errors: { scope: RegistrationScope; error: string }[] = [];
    settled.forEach((outcome, i) => {
      const scope = regs[i]!.scope;
      if (outcome.status === 'fulfilled') data.push({ scope, items: outcome.value });
      else
        errors.push({
          scope,
          error: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason),
        });
    });
    return { data, errors };
  }

  async readResource(request: {
    server: string;
    uri: string;
    environmentId?: string | null;
    signal?: AbortSignal;
  }) {
    const reg = await this.liveRegistration(request.server, request.environmentId);
    try {
      return await reg.connection!.readResource(
        request.uri,
        reg.config!.toolTimeoutMs,
        request.signal,
      );
    } catch (error) {
      throw requestFailed('resources/read', reg.label, error);
    }
  }

  /** SEP-2640 skills of one registration, listed without reading any file (docs/skills.md). */
  async listSkills(request: {
    server: string;
    environmentId?: string | null;
    signal?: AbortSignal;
  }) {
    const reg = await this.liveRegistration(request.server, request.environmentId);
    return reg.connection!.skills.list({ timeoutMs: reg.config!.toolTimeoutMs, ...request });
  }

  /** One file of a listed skill (default `SKILL.md`), read now and verified against the entry. */
  async readSkillFile(request: SkillFileRequest) {
    const reg = await this.liveRegistration(request.server, request.environmentId);
    const options = { timeoutMs: reg.config!.toolTimeoutMs, ...request };
    return reg.connection!.skills.read(request.skill, request.path, options);
  }

  /**
   * Apply a new config: unchanged registrations keep their process (their tool policy is
   * updated in place), changed ones restart, removed ones stop with a status update, new ones
   * start.
   */
  async applyConfig(config: McprtConfig, registry: EnvironmentRegistry): Promise<void> {
    if (this.closed) throw new SessionClosedError(this.threadId);
    const previous = this.registry;
    this.registry = registry;
    this.config = config;
    this.watchEnvironments();
    this.remote.read(registry, this.selectedIds(), true);
    this.sandbox.setLauncherSetting(config.sandboxLauncher);
    const next = new Map(this.sourcesFor(config).map((s) => [scopeKey(s.config.scope), s]));
    const stops: Promise<void>[] = [];
    for (const [key, reg] of this.registrations) {
      if (!next.has(key)) {
        this.registrations.delete(key);
        stops.push(
          reg.stop({
            status: 'cancelled',
            error: `MCP server \`${reg.label}\` was removed from the configuration`,
            kind: 'removed',
          }),
        );
      }
    }
    for (const [key, source] of next) {
      const current = this.registrations.get(key);
      const candidate = this.build(source);
      // Unchanged and healthy: keep the process. A failed or cancelled one is retried (Codex).
      const healthy = current?.startupStatus !== 'failed' && current?.startupStatus !== 'cancelled';
      // A changed environment (a new object) restarts the servers that execute in it.
      const envId = current?.config?.executionEnvironmentId;
      const sameEnvironment = envId === undefined || previous.get(envId) === registry.get(envId);
      if (
        current &&
        healthy &&
        sameEnvironment &&
        current.identity === candidate.identity &&
        current.enabled === candidate.enabled
      ) {
        current.source = source;
        continue;
      }
      if (current) stops.push(current.stop());
      this.registrations.set(key, candidate);
    }
    await Promise.all(stops);
    this.inventoryCache = null;
    this.start();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const off of this.unwatch.splice(0)) off();
    this.ctx.onClose?.(this);
    await Promise.all([...this.registrations.values()].map((r) => r.stop()));
  }

  private registration(scope: RegistrationScope): Registration {
    const reg = this.registrations.get(scopeKey(scope));
    if (!reg) throw new UnknownServerError(scope.name, scope.environmentId);
    return reg;
  }

  private describeCallFailure(
    method: string,
    label: string,
    connection: NonNullable<Registration['connection']>,
    error: unknown,
  ): Promise<RequestFailedError> {
    return describeDeath(method, label, connection, error);
  }

  private async liveRegistration(
    server: string,
    environmentId?: string | null,
  ): Promise<Registration> {
    if (this.closed) throw new SessionClosedError(this.threadId);
    await this.remoteFor(server, environmentId);
    let reg = this.registration(this.resolve(server, environmentId));
    if (this.lost.has(reg)) reg = this.revive(reg);
    if (!reg.enabled)
      throw new ServerUnavailableError(
        reg.label,
        reg.notSelectedReason ?? 'it is disabled in the configuration',
      );
    if (reg.restarting) {
      // A call made while the server restarts waits a bounded time for it (restart_wait_sec).
      const waitMs = reg.config?.supervision.restartWaitMs ?? 0;
      await Promise.race([reg.start(), new Promise((r) => setTimeout(r, waitMs).unref())]);
      if (!reg.connection || reg.startupStatus !== 'ready') {
        throw new ServerUnavailableError(reg.label, `it is restarting: ${reg.error ?? 'starting'}`);
      }
      return reg;
    }
    await reg.start();
    if (!reg.connection || reg.startupStatus !== 'ready') {
      throw new ServerUnavailableError(reg.label, reg.error ?? reg.connectionStatus);
    }
    return reg;
  }

  private inventory(): ToolInventory {
    this.inventoryCache ??= new ToolInventory(
      [...this.registrations.values()]
        .filter((r) => r.connection !== null && r.startupStatus === 'ready')
        .map((r) => ({ scope: r.scope, policy: r.config!, tools: r.connection!.tools })),
    );
    return this.inventoryCache;
  }

  private sourcesFor(config: McprtConfig): RegistrationSource[] {
    const selected = new Set(this.environments.map((e) => e.environmentId));
    const inScope = (scope: RegistrationScope) =>
      (scope.environmentId === null || selected.has(scope.environmentId)) &&
      (this.options.filter?.(scope) ?? true);
    const local: RegistrationSource[] = [
      ...config.servers.map((c) => ({ kind: 'valid' as const, config: c })),
      ...config.invalidServers.map((c) => ({ kind: 'invalid' as const, config: c })),
    ];
    // This machine's config wins over a remote host's own for the same scope.
    const localKeys = new Set(local.map((s) => scopeKey(s.config.scope)));
    const sources = [
      ...local,
      ...this.remote.sources().filter((s) => !localKeys.has(scopeKey(s.config.scope))),
    ];
    const order = (s: RegistrationSource) => {
      const env = s.config.scope.environmentId;
      return env === null ? -1 : this.environments.findIndex((e) => e.environmentId === env);
    };
    return sources.filter((s) => inScope(s.config.scope)).sort((a, b) => order(a) - order(b));
  }

  private selectedIds(): string[] {
    return this.environments.map((e) => e.environmentId);
  }

  /** Before routing a request: make sure the environments it may land in have been read. */
  private async remoteFor(server: string, environmentId?: string | null): Promise<void> {
    const selected = this.selectedIds();
    const has = (env: string | null) =>
      this.scopes().some((s) => s.name === server && s.environmentId === env);
    if (environmentId !== undefined && environmentId !== null) {
      const ids = selected.filter((id) => id === environmentId);
      this.remote.read(this.registry, ids);
      await this.remote.settled(ids);
      return;
    }
    if (has(null)) return;
    // Legacy routing: only the environments up to the first one that has the name matter.
    for (const id of selected) {
      this.remote.read(this.registry, [id]);
      await this.remote.settled([id]);
      if (has(id)) return;
    }
  }

  /**
   * An environment's own config was (re)read: add, replace or remove that environment's
   * registrations only (others, and unchanged ones, are left alone), then restore the order.
   */
  private applyRemote(environmentId: string): void {
    if (this.closed) return;
    this.emit('environmentRegistrations', {
      environmentId,
      error: this.remote.error(environmentId),
    });
    const ordered = this.sourcesFor(this.config);
    const next = new Map(
      ordered
        .filter((s) => s.config.scope.environmentId === environmentId)
        .map((s) => [scopeKey(s.config.scope), s]),
    );
    for (const [key, reg] of this.registrations) {
      if (reg.scope.environmentId !== environmentId || next.has(key)) continue;
      this.registrations.delete(key);
      void reg.stop({
        status: 'cancelled',
        error: `MCP server \`${reg.label}\` was removed from the configuration`,
        kind: 'removed',
      });
    }
    for (const [key, source] of next) {
      const current = this.registrations.get(key);
      const candidate = this.build(source);
      if (current?.identity === candidate.identity && current.enabled === candidate.enabled) {
        current.source = source;
        continue;
      }
      if (current) void current.stop();
      this.registrations.set(key, candidate);
      if (this.startedAll) void candidate.start();
    }
    const byKey = new Map(this.registrations);
    this.registrations.clear();
    for (const s of ordered) {
      const key = scopeKey(s.config.scope);
      const reg = byKey.get(key);
      if (reg) this.registrations.set(key, reg);
      byKey.delete(key);
    }
    for (const [key, reg] of byKey) this.registrations.set(key, reg);
    this.inventoryCache = null;
  }

  /** Follow the health of every environment that holds a connection. */
  private watchEnvironments(): void {
    for (const off of this.unwatch.splice(0)) off();
    for (const id of this.registry.configuredIds) {
      const off = this.registry.get(id)?.onHealthChange?.((health) => {
        if (health.state === 'disconnected' && health.error !== null) {
          this.environmentLost(id, health.error);
        }
      });
      if (off) this.unwatch.push(off);
    }
  }

  /** The environment's connection is gone: its live servers fail, naming the environment. */
  private environmentLost(environmentId: string, error: string): void {
    for (const reg of this.registrations.values()) {
      if (reg.config?.executionEnvironmentId !== environmentId) continue;
      if (reg.startupStatus !== 'ready') continue;
      this.lost.add(reg);
      void reg.stop({
        status: 'failed',
        error: `MCP server \`${reg.label}\` stopped: ${error}`,
        kind: 'crashed',
      });
    }
  }

  private environmentDown(reg: Registration): boolean {
    const envId = reg.config?.executionEnvironmentId;
    if (envId === undefined) return false;
    return this.registry.get(envId)?.health?.().state === 'disconnected';
  }

  /** Next use of a server lost with its environment: a fresh registration (reconnects). */
  /**
   * The OAuth credentials of `scope` changed (a login or logout): its registration reconnects
   * with them, without restarting anything else. Nothing happens for a scope this session lacks.
   */
  async restartRegistration(scope: RegistrationScope): Promise<void> {
    const key = scopeKey(scope);
    const current = this.registrations.get(key);
    if (!current || this.closed) return;
    const wasStarted = current.startupStatus !== null;
    const fresh = this.build(current.source);
    this.registrations.set(key, fresh);
    this.lost.delete(current);
    this.inventoryCache = null;
    await current.stop();
    if (wasStarted || this.startedAll) await fresh.start();
  }

  private revive(reg: Registration): Registration {
    const fresh = this.build(reg.source);
    this.registrations.set(scopeKey(reg.scope), fresh);
    this.lost.delete(reg);
    this.inventoryCache = null;
    return fresh;
  }

  private add(source: RegistrationSource): void {
    this.registrations.set(scopeKey(source.config.scope), this.build(source));
  }

  private build(source: RegistrationSource): Registration {
    return new Registration(
      source,
      {
        environments: this.registry,
        processEnv: this.ctx.processEnv,
        ...(this.ctx.auth ? { auth: this.ctx.auth } : {}),
        cwdFor: (envId) =>
          envId === 'local'
            ? this.cwd
            : (this.environments.find((e) => e.environmentId === envId)?.cwd ?? this.cwd),
        isSelected: (envId) => this.environments.some((e) => e.environmentId === envId),
      },
      {
        onStartup: (reg) => {
          if (reg.startupStatus === 'failed' && this.environmentDown(reg)) this.lost.add(reg);
          if (
            this.registrations.get(scopeKey(reg.scope)) === reg ||
            reg.failureKind === 'removed'
          ) {
            this.inventoryCache = null;
            this.emit('startupStatus', {
              threadId: this.threadId,
              scope: reg.scope,
              name: reg.scope.name,
              environmentId: reg.scope.environmentId,
              status: reg.startupStatus!,
              error: reg.error,
              failureKind: reg.failureKind,
            });
          }
        },
        onInventoryChanged: (reg) => {
          this.inventoryCache = null;
          this.emit('inventoryChanged', { scope: reg.scope });
        },
        onElicitation: (reg, request) => this.elicitations.relay(reg.scope, request),
      },
    );
  }
}

/**
 * A request that failed because the server died under it says so (exit status or signal) and
 * names the registration, instead of the transport's bare "Connection closed".
 */
async function describeDeath(
  method: string,
  label: string,
  connection: NonNullable<Registration['connection']>,
  error: unknown,
): Promise<RequestFailedError> {
  const message = error instanceof Error ? error.message : String(error);
  if (!connection.ended && !/connection closed/i.test(message))
    return requestFailed(method, label, error);
  // The exit status arrives with the process's exit event, a moment after the pipe closes.
  for (let i = 0; i < 10 && !connection.exitInfo && !connection.ended; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return new RequestFailedError(
    `${method} to MCP server \`${label}\` failed: the server stopped during the call (${connection.closeReason()})`,
    { cause: error },
  );
}

/** A streamable-HTTP 404 on a request that carried our session id: the session is gone. */
function isSessionLost(error: unknown): boolean {
  return (error as { data?: { status?: unknown } } | null)?.data?.status === 404;
}

function requestFailed(method: string, label: string, error: unknown): RequestFailedError {
  const message = error instanceof Error ? error.message : String(error);
  return new RequestFailedError(`${method} to MCP server \`${label}\` failed: ${message}`, {
    cause: error,
  });
}
