/**
 * A session (an app-server "thread"): the selected environments with their cwds, and one
 * registration per enabled server in scope — thread-wide servers plus servers contributed by the
 * selected environments. This file is the façade of its lifecycle, status and config — the parts
 * (sessionParts.ts): the registrations, kept in step with the config and the environments' own
 * configs (registrationSet.ts), routing (router.ts), calls (calls.ts), status (statusView.ts,
 * startupSummary.ts), elicitation (elicitations.ts); what it asks its servers (tool calls,
 * resources, prompts, skills) is the public API in sessionRequests.ts.
 */

import { randomUUID } from 'node:crypto';

import type { McprtConfig } from '../config/types.js';
import type { ElicitationHandler, ElicitationRequest } from '../elicitation/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import { ServerUnavailableError, SessionClosedError, ToolNotInViewError } from '../errors.js';
import type { CallToolResult } from '../connection/mcpTypes.js';
import type { InventoryTool } from '../inventory/inventory.js';
import { SessionSandbox } from '../sandbox/sessionSandbox.js';
import type { RegistrationScope } from '../scope.js';
import { scopeLabel } from '../scope.js';
import { SessionViews } from '../views/sessionViews.js';
import type { ToolView } from '../views/toolView.js';
import { primeCallPath } from './callPathWarmUp.js';
import { ElicitationRelay } from './elicitations.js';
import type { SessionCalls, ToolCallRequest } from './calls.js';
import type { RegistrationSet } from './registrationSet.js';
import type { Router } from './router.js';
import { assembleSession } from './sessionParts.js';
import { SessionRequests } from './sessionRequests.js';
import { SessionTasks } from './sessionTasks.js';
import type { SessionContext, SessionEnvironment, SessionOptions } from './sessionTypes.js';
import { summarizeStartup } from './startupSummary.js';
import type { ServerStatus, StartupSummary } from './status.js';
import type { StatusFilter } from './statusView.js';
import { collectStatus, listStatuses } from './statusView.js';

export class Session extends SessionRequests {
  readonly threadId: string;
  readonly environments: readonly SessionEnvironment[];
  private readonly registrations: RegistrationSet;
  private readonly router: Router;
  protected readonly calls: SessionCalls;
  private readonly elicitations: ElicitationRelay;
  private readonly sandbox: SessionSandbox;
  private readonly views: SessionViews;
  /** The view the session runs under (null: the whole inventory); calls outside it are refused. */
  readonly view: string | null;
  /** Calls the servers ran as tasks: listed from the history, resumed after a restart. */
  readonly tasks: SessionTasks;
  private closed = false;

  constructor(
    config: McprtConfig,
    registry: EnvironmentRegistry,
    private readonly ctx: SessionContext,
    options: SessionOptions = {},
  ) {
    super();
    const threadId = options.threadId ?? randomUUID();
    this.threadId = threadId;
    const cwd = options.cwd ?? null;
    const environments =
      options.environments ??
      registry.configuredIds.map((id) => ({
        environmentId: id,
        cwd: registry.get(id)?.defaultCwd ?? cwd,
      }));
    this.environments = environments;
    // An unknown or invalid view is refused before anything starts.
    this.views = new SessionViews(config, options.view ?? null);
    this.view = this.views.view;
    this.elicitations = new ElicitationRelay(threadId, options.onElicitation ?? null);
    this.sandbox = new SessionSandbox(options.sandboxState, config.sandboxLauncher);
    ({
      registrations: this.registrations,
      router: this.router,
      calls: this.calls,
    } = assembleSession({
      threadId,
      config,
      registry,
      ctx,
      options,
      environments,
      elicitations: this.elicitations,
      sandbox: this.sandbox,
      closed: () => this.closed,
      events: {
        startupStatus: (event) => this.emit('startupStatus', event),
        inventoryChanged: (scope) => this.emit('inventoryChanged', { scope }),
        environmentRegistrations: (environmentId, error) =>
          this.emit('environmentRegistrations', { environmentId, error }),
        toolCalls: {
          started: (e) => this.emit('toolCallStarted', e),
          progress: (e) => this.emit('toolCallProgress', e),
          completed: (e) => this.emit('toolCallCompleted', e),
        },
      },
    }));
    this.tasks = new SessionTasks({ router: this.router, history: ctx.history ?? null });
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
    this.registrations.startAll();
    // While the servers start: the call path's pure steps, once per process (ADR 0027).
    primeCallPath();
    this.views.prepare();
    return this;
  }

  /** Why the environment's own config (ssh: the remote `~/.mcprt/config.toml`) was not read. */
  registrationsError(environmentId: string): string | null {
    return this.registrations.remote.error(environmentId);
  }

  /**
   * Wait until every registration (or, with `requiredOnly`, every required one) has settled;
   * then enforce `required`. Rejects with `RequiredServersError` (Codex's aggregated message)
   * when a required server did not start.
   */
  async ready(options: { requiredOnly?: boolean } = {}): Promise<StartupSummary> {
    const settled = await this.registrations.settle(
      (r) => !options.requiredOnly || (r.required && r.enabled),
    );
    return summarizeStartup(settled);
  }

  /** Every registration of this session, in order: thread-wide first, then by environment. */
  scopes(): RegistrationScope[] {
    return this.registrations.scopes();
  }

  /**
   * Status of every registration; `serverName` / `environmentId` narrow it. With only
   * `environmentId`, every registration of that scope is returned.
   */
  listStatus(filter: StatusFilter = {}): ServerStatus[] {
    return listStatuses(this.registrations, filter, this.ctx.auth);
  }

  /** Select one registration by name and optional environment (the brief's routing table). */
  resolve(server: string, environmentId?: string | null): RegistrationScope {
    return this.router.resolve(server, environmentId);
  }

  status(server: string, environmentId?: string | null): ServerStatus {
    const reg = this.registrations.get(this.resolve(server, environmentId));
    return collectStatus(reg, this.registrations.inventory().forScope(reg.scope), this.ctx.auth);
  }

  /**
   * Start one registration (routed by `(server, environmentId?)` as a request is) and wait until
   * its startup settled; its status then. A server that fails to start is a status, not an
   * error; an unknown server or environment throws as for any request.
   */
  async connect(server: string, environmentId?: string | null): Promise<ServerStatus> {
    try {
      await this.router.live(server, environmentId);
    } catch (error) {
      if (!(error instanceof ServerUnavailableError)) throw error;
    }
    return this.status(server, environmentId);
  }

  /** Model-visible tools of every connected registration. */
  tools(): readonly InventoryTool[] {
    return this.registrations.inventory().tools;
  }

  /**
   * The session's tools as a model sees them through a view (default: the session's own; null:
   * the whole inventory): names, overrides, search and token costs (docs/tool-shaping.md).
   * Throws `UnknownViewError` for a name config.toml does not define. `environments`: only the
   * registrations of these environments (`-`: thread-wide ones), as a gateway's caller policy
   * allows.
   */
  toolView(
    name: string | null = this.view,
    environments: ReadonlySet<string> | null = null,
  ): ToolView {
    return this.views.toolView(this.tools(), name, environments);
  }

  /**
   * Call a tool of one registration; under a view, a tool outside it is refused (recorded in the
   * history as refused) and the call is recorded with the view's name.
   */
  override callTool(request: ToolCallRequest): Promise<CallToolResult> {
    const view = this.view;
    if (view === null) return this.calls.callTool(request);
    try {
      const scope = this.resolve(request.server, request.environmentId);
      if (!this.views.selection().includes(scope, request.tool)) {
        const error = new ToolNotInViewError(request.tool, scopeLabel(scope), view);
        this.recordRefusedCall({
          server: scope.name,
          environmentId: scope.environmentId,
          tool: request.tool,
          ...(request.arguments !== undefined ? { arguments: request.arguments } : {}),
          view,
          error: error.message,
          ...(request.caller !== undefined ? { caller: request.caller } : {}),
        });
        return Promise.reject(error);
      }
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.calls.callTool(request.view === view ? request : { ...request, view });
  }

  /** Call a tool by its model-visible name; under a view, as `callTool`. */
  override callModelTool(
    modelName: string,
    args?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    if (this.view === null) return this.calls.callModelTool(modelName, args, signal);
    const entry = this.registrations.inventory().findByModelName(modelName);
    if (entry === undefined) return this.calls.callModelTool(modelName, args, signal);
    return this.callTool({
      server: entry.scope.name,
      environmentId: entry.scope.environmentId,
      tool: entry.tool.name,
      ...(args !== undefined ? { arguments: args } : {}),
      ...(signal !== undefined ? { signal } : {}),
    });
  }

  /**
   * Apply a new config: unchanged registrations keep their process (their tool policy is
   * updated in place), changed ones restart, removed ones stop with a status update, new ones
   * start.
   */
  async applyConfig(config: McprtConfig, registry: EnvironmentRegistry): Promise<void> {
    if (this.closed) throw new SessionClosedError(this.threadId);
    this.sandbox.setLauncherSetting(config.sandboxLauncher);
    this.views.setConfig(config);
    await this.registrations.apply(config, registry);
  }

  /**
   * The OAuth credentials of `scope` changed (a login or logout): its registration reconnects
   * with them, without restarting anything else. Nothing happens for a scope this session lacks.
   */
  async restartRegistration(scope: RegistrationScope): Promise<void> {
    await this.registrations.restart(scope);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ctx.onClose?.(this);
    await this.registrations.close();
  }
}
