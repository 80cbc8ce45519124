/**
 * A session (an app-server "thread"): the selected environments with their cwds, and one
 * registration per enabled server in scope — thread-wide servers plus servers contributed by the
 * selected environments. This file is the façade that wires the parts and keeps the public API:
 * the registrations, kept in step with the config and the environments' own configs
 * (registrationSet.ts), how they are made (registrationFactory.ts), routing (router.ts), calls
 * (calls.ts), status (statusView.ts, startupSummary.ts), elicitation (elicitations.ts) and the
 * thread's sandbox state.
 */

import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

import type { McprtConfig } from '../config/types.js';
import type {
  CallToolResult,
  GetPromptResult,
  McpPrompt,
  ReadResourceResult,
} from '../connection/mcpTypes.js';
import type { ElicitationHandler, ElicitationRequest } from '../elicitation/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import { SessionClosedError, UnknownServerError } from '../errors.js';
import type { InventoryTool } from '../inventory/inventory.js';
import { SessionSandbox } from '../sandbox/sessionSandbox.js';
import type { RegistrationScope } from '../scope.js';
import type { SkillFile, SkillFileRequest, SkillListing } from '../skills/types.js';
import type {
  LiveListing,
  PromptRequest,
  ResourceFilter,
  ResourceReadRequest,
  SkillListRequest,
  ToolCallRequest,
} from './calls.js';
import { SessionCalls } from './calls.js';
import { ElicitationRelay } from './elicitations.js';
import { registrationFactory } from './registrationFactory.js';
import { RegistrationSet } from './registrationSet.js';
import { Router } from './router.js';
import type {
  SessionContext,
  SessionEnvironment,
  SessionEvents,
  SessionOptions,
} from './sessionTypes.js';
import { summarizeStartup } from './startupSummary.js';
import type {
  ServerStatus,
  StartupSummary,
  StatusResource,
  StatusResourceTemplate,
} from './status.js';
import type { StatusFilter } from './statusView.js';
import { collectStatus, listStatuses } from './statusView.js';

export type {
  LiveListing,
  PromptRequest,
  ResourceFilter,
  ResourceReadRequest,
  SkillListRequest,
  ToolCallRequest,
} from './calls.js';
export type {
  SessionContext,
  SessionEnvironment,
  SessionEvents,
  SessionOptions,
} from './sessionTypes.js';

export class Session extends EventEmitter<SessionEvents> {
  readonly threadId: string;
  readonly environments: readonly SessionEnvironment[];
  private readonly registrations: RegistrationSet;
  private readonly router: Router;
  private readonly calls: SessionCalls;
  private readonly elicitations: ElicitationRelay;
  private readonly sandbox: SessionSandbox;
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
    this.elicitations = new ElicitationRelay(threadId, options.onElicitation ?? null);
    this.sandbox = new SessionSandbox(options.sandboxState, config.sandboxLauncher);
    const build = registrationFactory({
      threadId,
      processEnv: ctx.processEnv,
      auth: ctx.auth,
      cwd,
      environments,
      registrations: () => this.registrations,
      elicitations: this.elicitations,
      onStartupStatus: (event) => this.emit('startupStatus', event),
      onInventoryChanged: (scope) => this.emit('inventoryChanged', { scope }),
    });
    const environmentOrder = environments.map((e) => e.environmentId);
    this.registrations = new RegistrationSet(config, registry, {
      selection: { environmentOrder, filter: options.filter },
      build,
      onEnvironmentRead: (environmentId, error) =>
        this.emit('environmentRegistrations', { environmentId, error }),
    });
    this.router = new Router({
      threadId,
      registrations: this.registrations,
      selected: () => environmentOrder,
      closed: () => this.closed,
    });
    this.calls = new SessionCalls({
      threadId,
      router: this.router,
      registrations: this.registrations,
      sandbox: this.sandbox,
      history: ctx.history ?? null,
      events: {
        started: (e) => this.emit('toolCallStarted', e),
        progress: (e) => this.emit('toolCallProgress', e),
        completed: (e) => this.emit('toolCallCompleted', e),
      },
    });
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

  /** Model-visible tools of every connected registration. */
  tools(): readonly InventoryTool[] {
    return this.registrations.inventory().tools;
  }

  /**
   * Call a tool of one registration. Emits `toolCallStarted`/`toolCallProgress`/
   * `toolCallCompleted` and records the call in history. The MCP result is returned unchanged
   * (also with `isError: true`); transport failures, timeouts and cancellation reject.
   */
  callTool(request: ToolCallRequest): Promise<CallToolResult> {
    return this.calls.callTool(request);
  }

  /** Call a tool by its model-visible name (`mcp__server__tool`). */
  async callModelTool(
    modelName: string,
    args?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const entry = this.registrations.inventory().findByModelName(modelName);
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
  listResources(filter: ResourceFilter = {}): Promise<LiveListing<StatusResource>> {
    return this.calls.list('resources', filter);
  }

  /** Resource templates, as `listResources`. */
  listResourceTemplates(filter: ResourceFilter = {}): Promise<LiveListing<StatusResourceTemplate>> {
    return this.calls.list('resourceTemplates', filter);
  }

  /** Read one resource of a registration (routed like a tool call). */
  readResource(request: ResourceReadRequest): Promise<ReadResourceResult> {
    return this.calls.readResource(request);
  }

  /** Prompts, as `listResources` (a server without the prompts capability lists none). */
  listPrompts(filter: ResourceFilter = {}): Promise<LiveListing<McpPrompt>> {
    return this.calls.list('prompts', filter);
  }

  /** `prompts/get` on one registration (the usual routing); the result is returned unchanged. */
  getPrompt(request: PromptRequest): Promise<GetPromptResult> {
    return this.calls.getPrompt(request);
  }

  /** SEP-2640 skills of one registration, listed without reading any file (docs/skills.md). */
  listSkills(request: SkillListRequest): Promise<SkillListing> {
    return this.calls.listSkills(request);
  }

  /** One file of a listed skill (default `SKILL.md`), read now and verified against the entry. */
  readSkillFile(request: SkillFileRequest): Promise<SkillFile> {
    return this.calls.readSkillFile(request);
  }

  /**
   * Apply a new config: unchanged registrations keep their process (their tool policy is
   * updated in place), changed ones restart, removed ones stop with a status update, new ones
   * start.
   */
  async applyConfig(config: McprtConfig, registry: EnvironmentRegistry): Promise<void> {
    if (this.closed) throw new SessionClosedError(this.threadId);
    this.sandbox.setLauncherSetting(config.sandboxLauncher);
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
