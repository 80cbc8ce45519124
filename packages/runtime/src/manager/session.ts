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
import type { EnvironmentRegistry } from '../environments/registry.js';
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
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { Registration } from './registration.js';
import type { RegistrationSource } from './registration.js';
import { collectStatus } from './statusView.js';
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
  /**
   * Start nothing up front: each registration starts on first use (a tool call, a resource
   * read, `start()` or `ready()`). The CLI's `call` uses this to start only its target.
   */
  readonly lazy?: boolean;
}

export interface ToolCallRequest {
  readonly server: string;
  readonly tool: string;
  readonly environmentId?: string | null;
  readonly arguments?: Record<string, unknown>;
  readonly meta?: Record<string, unknown>;
  readonly signal?: AbortSignal;
  /** Overrides the registration's `tool_timeout_sec`. */
  readonly timeoutMs?: number;
  readonly onProgress?: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
}

export interface SessionEvents {
  startupStatus: [StartupStatusEvent];
  inventoryChanged: [{ scope: RegistrationScope }];
}

export interface SessionContext {
  readonly processEnv: NodeJS.ProcessEnv;
  /** Called once when the session closes (the runtime forgets it). */
  readonly onClose?: (session: Session) => void;
}

export class Session extends EventEmitter<SessionEvents> {
  readonly threadId: string;
  readonly environments: readonly SessionEnvironment[];
  private readonly cwd: string | null;
  private readonly registrations = new Map<string, Registration>();
  private inventoryCache: ToolInventory | null = null;
  private closed = false;
  private registry: EnvironmentRegistry;

  constructor(
    config: McprtConfig,
    registry: EnvironmentRegistry,
    private readonly ctx: SessionContext,
    private readonly options: SessionOptions = {},
  ) {
    super();
    this.registry = registry;
    this.threadId = options.threadId ?? randomUUID();
    this.cwd = options.cwd ?? null;
    this.environments =
      options.environments ??
      registry.configuredIds.map((id) => ({
        environmentId: id,
        cwd: registry.get(id)?.defaultCwd ?? this.cwd,
      }));
    for (const source of this.sourcesFor(config)) this.add(source);
  }

  /** Start every enabled registration concurrently (idempotent). */
  start(): this {
    for (const reg of this.registrations.values()) void reg.start();
    return this;
  }

  /**
   * Wait until every registration (or, with `requiredOnly`, every required one) has settled;
   * then enforce `required`. Rejects with `RequiredServersError` (Codex's aggregated message)
   * when a required server did not start.
   */
  async ready(options: { requiredOnly?: boolean } = {}): Promise<StartupSummary> {
    this.start();
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
      .map((r) => collectStatus(r, inventory.forScope(r.scope)));
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
    return collectStatus(reg, this.inventory().forScope(reg.scope));
  }

  /** Model-visible tools of every connected registration. */
  tools(): readonly InventoryTool[] {
    return this.inventory().tools;
  }

  async callTool(request: ToolCallRequest) {
    const reg = await this.liveRegistration(request.server, request.environmentId);
    const config = reg.config!;
    if (!isToolEnabled(config, request.tool)) throw new ToolDisabledError(request.tool, reg.label);
    const connection = reg.connection!;
    try {
      return await connection.callTool(request.tool, request.arguments, {
        timeoutMs: request.timeoutMs ?? config.toolTimeoutMs,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.meta ? { meta: request.meta } : {}),
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
      });
    } catch (error) {
      throw requestFailed(`tools/call`, reg.label, error);
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

  /**
   * Apply a new config: unchanged registrations keep their process (their tool policy is
   * updated in place), changed ones restart, removed ones stop with a status update, new ones
   * start.
   */
  async applyConfig(config: McprtConfig, registry: EnvironmentRegistry): Promise<void> {
    if (this.closed) throw new SessionClosedError(this.threadId);
    this.registry = registry;
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
      if (
        current &&
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
    this.ctx.onClose?.(this);
    await Promise.all([...this.registrations.values()].map((r) => r.stop()));
  }

  private registration(scope: RegistrationScope): Registration {
    const reg = this.registrations.get(scopeKey(scope));
    if (!reg) throw new UnknownServerError(scope.name, scope.environmentId);
    return reg;
  }

  private async liveRegistration(
    server: string,
    environmentId?: string | null,
  ): Promise<Registration> {
    if (this.closed) throw new SessionClosedError(this.threadId);
    const reg = this.registration(this.resolve(server, environmentId));
    if (!reg.enabled)
      throw new ServerUnavailableError(reg.label, 'it is disabled in the configuration');
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
    const sources: RegistrationSource[] = [
      ...config.servers.map((c) => ({ kind: 'valid' as const, config: c })),
      ...config.invalidServers.map((c) => ({ kind: 'invalid' as const, config: c })),
    ];
    const order = (s: RegistrationSource) => {
      const env = s.config.scope.environmentId;
      return env === null ? -1 : this.environments.findIndex((e) => e.environmentId === env);
    };
    return sources.filter((s) => inScope(s.config.scope)).sort((a, b) => order(a) - order(b));
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
        cwdFor: (envId) =>
          envId === 'local'
            ? this.cwd
            : (this.environments.find((e) => e.environmentId === envId)?.cwd ?? this.cwd),
      },
      {
        onStartup: (reg) => {
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
      },
    );
  }
}

function requestFailed(method: string, label: string, error: unknown): RequestFailedError {
  const message = error instanceof Error ? error.message : String(error);
  return new RequestFailedError(`${method} to MCP server \`${label}\` failed: ${message}`, {
    cause: error,
  });
}
