/**
 * One live MCP connection for one registration scope: connects (client and transport from
 * mcpClient.ts; the handshake, 2026 probe included, from protocolVersion.ts; which handshake
 * each attempt uses, the scope's remembered revision and the retries from connectRoute.ts),
 * takes the first listings under the startup timeout, then keeps the inventory current
 * (inventorySync.ts; on 2026-07-28 through a `subscriptions/listen` stream, changeStream.ts),
 * relays elicitation (elicitationBridge.ts), pings (health.ts), tells why it ended
 * (connectionEnd.ts), and forwards tool calls, resource reads, prompts and skills (skills.ts)
 * with the configured tool timeout.
 * Startup failures become typed `StartupFailure`s with Codex's texts; request failures become
 * `McpRequestError`s (requestErrors.ts); results are the runtime's own types (mcpTypes.ts).
 */

import type { Client, Transport } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import type { ExecutionEnvironment } from '../environments/types.js';
import { scopeLabel } from '../scope.js';
import type { LaunchPlan } from '../launch/plan.js';
import { StdioProcessTransport } from '../launch/stdioTransport.js';
import { activeTracer, traceUpstream } from '../telemetry/tracing.js';
import { ChangeStream, changeFilter } from './changeStream.js';
import { endReason, settleExit } from './connectionEnd.js';
import type { ConnectRoute } from './connectRoute.js';
import { firstRoute, nextRoute, recordVerdict } from './connectRoute.js';
import { outsideCallOrigins } from './callOrigin.js';
import { bridgeElicitation } from './elicitationBridge.js';
import { FastToolCalls } from './fastToolCalls.js';
import { startHealthCheck } from './health.js';
import { InventorySync } from './inventorySync.js';
import type { ListItems, ListKind } from './inventorySync.js';
import type { ConnectionAuth } from './mcpClient.js';
import { buildTransport, createClient } from './mcpClient.js';
import type {
  CallToolResult,
  GetPromptResult,
  McpResource,
  McpResourceTemplate,
  ReadResourceResult,
  ServerCapabilities,
  ServerInfo,
  ToolDefinition,
} from './mcpTypes.js';
import type { McpRequestError } from './requestErrors.js';
import { settledFailure } from './requestErrors.js';
import { handshake, versionNegotiation } from './protocolVersion.js';
import type { VerdictSlot } from './revisionVerdicts.js';
import type { CallLimits, ToolCallParams } from './sdkToolCall.js';
import { sdkToolCall, toolCallParams } from './sdkToolCall.js';
import { getPrompt, readResource } from './serverRequests.js';
import type { CallOptions, ConnectionListener } from './connectionTypes.js';
import { ServerSkills } from './skills.js';
import { TaskCalls } from './taskCalls.js';
import type { TaskRef } from './taskWire.js';
import { taskWireFor } from './taskWire.js';
import { describeStartupFailure, StartupFailure } from './startupErrors.js';
import type { RequestLimits } from './timeouts.js';
import { clampMs, requestOptions } from './timeouts.js';
import { listWhole } from './wholeList.js';

export type { CallOptions, ConnectionListener } from './connectionTypes.js';

export class ServerConnection {
  /** The client of the current connection attempt (a new one per attempt). */
  private client: Client;
  private readonly inventory: InventorySync;
  private changes: ChangeStream | undefined;
  private transport: Transport | undefined;
  private closing = false;
  private healthFailure: string | null = null;
  private stopHealthCheck: () => void = () => undefined;
  private readyFlag = false;
  private skillsValue: ServerSkills | undefined;
  /** The tool-call fast path of the current stdio transport (ADR 0021). */
  private fast: FastToolCalls | undefined;
  /** True once the connection has ended (crash, kill, closed stream). */
  ended = false;
  private readonly tasks: TaskCalls;

  constructor(
    readonly config: ServerConfig,
    private readonly environment: ExecutionEnvironment,
    private readonly plan: LaunchPlan,
    private readonly listener: ConnectionListener,
    /** OAuth for HTTP transports (none: only static headers). */
    private readonly auth?: ConnectionAuth,
    /** The scope's remembered protocol revision (revisionVerdicts.ts). */
    private readonly verdict?: VerdictSlot,
  ) {
    this.client = this.newClient(versionNegotiation(config));
    this.tasks = new TaskCalls({
      config,
      tools: () => this.tools,
      currentClient: () => this.client,
      currentTransport: () => this.transport,
      elicit: (request) => listener.onElicitation(request),
    });
    this.inventory = new InventorySync(
      {
        fetchPage: async (method, cursor, limits) =>
          (await this.client.request(
            { method, params: cursor === undefined ? {} : { cursor } },
            requestOptions(limits),
          )) as Readonly<Record<string, unknown>>,
        // 2026-07-28: the SDK's own listing and response cache (wholeList.ts).
        whole: (kind, limits, refresh) =>
          this.client.getProtocolEra() === 'modern'
            ? listWhole(this.client, kind, limits, refresh)
            : null,
      },
      () => this.capabilities,
      {
        limits: () => ({ timeoutMs: this.config.toolTimeoutMs }),
        stopped: () => this.closing,
        onChanged: () => this.listener.onInventoryChanged(),
      },
    );
  }

  /** SEP-2640 skills of this server (docs/skills.md), read lazily. */
  get skills(): ServerSkills {
    this.skillsValue ??= new ServerSkills(this.client, scopeLabel(this.config.scope));
    return this.skillsValue;
  }

  get serverInfo(): ServerInfo | undefined {
    return this.client.getServerVersion();
  }

  get capabilities(): ServerCapabilities | undefined {
    return this.client.getServerCapabilities();
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  /** The protocol revision negotiated at connect (undefined before). */
  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  get tools(): readonly ToolDefinition[] {
    return this.inventory.tools;
  }

  get resources(): readonly McpResource[] {
    return this.inventory.resources;
  }

  get resourceTemplates(): readonly McpResourceTemplate[] {
    return this.inventory.resourceTemplates;
  }

  /**
   * The inventory is about to be used: tools listed with a `ttlMs` that has passed are listed
   * again in the background (`onInventoryChanged` when they differ).
   */
  revalidate(): void {
    if (this.readyFlag && !this.closing) this.inventory.revalidate();
  }

  /** Last stderr lines of a stdio server (empty for HTTP). */
  stderrTail(): string[] {
    return this.transport instanceof StdioProcessTransport ? this.transport.stderr.snapshot() : [];
  }

  /** How the server process ended, once it has (stdio only). */
  get exitInfo(): { code: number | null; signal: string | null } | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.exit : undefined;
  }

  get pid(): number | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.pid : undefined;
  }

  /**
   * Connect, initialize and take the first inventory. Each phase is bounded by the startup
   * timeout (as in Codex). An attempt that failed may be followed by another (connectRoute.ts:
   * a remembered revision refused, a stdio server that exited on the probe). Throws
   * `StartupFailure` with a message for people.
   */
  async start(signal: AbortSignal): Promise<void> {
    const timeoutMs = clampMs(this.config.startupTimeoutMs);
    let route = firstRoute(this.config, this.verdict);
    try {
      for (;;) {
        try {
          await this.attempt(route, timeoutMs, signal);
          break;
        } catch (error) {
          if (signal.aborted) throw error;
          await settleExit(this.config, this.transport, error);
          const next = nextRoute(this.config, route, error, this.exitInfo !== undefined);
          if (next === null) throw error;
          if (route.remembered) this.verdict?.forget();
          await this.discard();
          route = next;
        }
      }
      if (signal.aborted) throw new StartupFailure('cancelled', 'MCP startup cancelled');
      if (route.records && this.verdict) recordVerdict(this.verdict, this.client);
      this.readyFlag = true;
    } catch (error) {
      const failure = signal.aborted
        ? new StartupFailure('cancelled', 'MCP startup cancelled')
        : describeStartupFailure(this.config, error, this.transport);
      await this.close();
      throw failure;
    }
  }

  /** One connection attempt: a new client and transport, the handshake, the first listings. */
  private attempt(route: ConnectRoute, timeoutMs: number, signal: AbortSignal): Promise<void> {
    // Its process and streams outlive whichever call started it: no call's origin (callOrigin.ts).
    return outsideCallOrigins(() => this.attemptNow(route, timeoutMs, signal));
  }

  private async attemptNow(route: ConnectRoute, timeoutMs: number, signal: AbortSignal) {
    const client = (this.client = this.newClient(route.negotiation));
    const transport = (this.transport = buildTransport(
      this.config,
      this.environment,
      this.plan,
      this.auth,
    ));
    const abort = () => void this.close();
    signal.addEventListener('abort', abort, { once: true });
    try {
      await handshake(timeoutMs, signal, (handshakeSignal) =>
        client.connect(transport, {
          timeout: timeoutMs,
          signal: handshakeSignal,
          ...(route.prior ? { prior: route.prior } : {}),
        }),
      );
      this.follow(timeoutMs);
      await Promise.all([this.inventory.refresh({ timeoutMs, signal }), this.changes?.start()]);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  /** Drop a failed attempt's client, transport (its process) and followers. */
  private async discard(): Promise<void> {
    this.stopHealthCheck();
    this.stopHealthCheck = () => undefined;
    this.changes?.stop();
    this.changes = undefined;
    await this.client.close().catch(() => undefined);
    await this.transport?.close().catch(() => undefined);
    this.ended = false;
  }

  /** A client whose elicitation requests reach the listener. */
  private newClient(negotiation: ReturnType<typeof versionNegotiation>): Client {
    const client = createClient(this.config, negotiation);
    const extensions = this.listener.clientExtensions?.();
    if (extensions !== undefined) client.registerCapabilities({ extensions: extensions as never });
    bridgeElicitation(client, (request) => this.listener.onElicitation(request));
    return client;
  }

  /**
   * `tools/call` (fast path or SDK's); rejects with `McpRequestError` (a died server's: why). The
   * fast path translates its failures itself, so its promise is returned as is (ADR 0023).
   */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<CallToolResult> {
    // Tracing off: one check, `_meta` as given (telemetry/tracing.ts).
    const tracer = activeTracer();
    if (tracer === null) return this.sendCall(name, args, options.meta, options);
    const send = (meta: unknown) => this.sendCall(name, args, meta, options);
    return traceUpstream(tracer, this, 'tools/call', name, options.meta, send);
  }

  private sendCall(
    name: string,
    args: Record<string, unknown> | undefined,
    meta: unknown,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const params = toolCallParams(name, args, meta);
    const limits: CallLimits = {
      timeoutMs: clampMs(options.timeoutMs),
      signal: options.signal,
      onProgress: options.onProgress,
    };
    const modern = this.client.getProtocolEra() === 'modern';
    const find = () => this.tools.find((tool) => tool.name === name);
    const wire = taskWireFor(modern, this.capabilities, find, options.task?.wanted === true);
    if (wire !== null) {
      const task = { ...limits, task: options.task };
      return this.tasks.call(params, wire, task).catch((e: unknown) => this.rejectWith(e));
    }
    const fast = this.fastPath();
    if (fast) return fast.callTool(params, limits, this.tools);
    return this.sdkCall(params, limits);
  }

  private sdkCall(params: ToolCallParams, limits: CallLimits): Promise<CallToolResult> {
    return sdkToolCall(this.client, params, limits).catch((e: unknown) => this.rejectWith(e));
  }

  private async rejectWith(error: unknown): Promise<never> {
    throw await this.requestFailure(error);
  }

  /** Follow a task an earlier process started (its history reference) to its end. */
  resumeTask(ref: TaskRef, options: CallOptions): Promise<CallToolResult> {
    const limits = { timeoutMs: clampMs(options.timeoutMs), signal: options.signal };
    const task = { ...limits, onProgress: options.onProgress, task: options.task };
    return this.tasks.resume(ref, task).catch((e: unknown) => this.rejectWith(e));
  }

  /** The fast path, when it serves this connection: a ready stdio one. */
  private fastPath(): FastToolCalls | undefined {
    const t = this.transport;
    if (!this.readyFlag || !(t instanceof StdioProcessTransport)) return undefined;
    if (this.fast?.transport === t) return this.fast;
    return (this.fast = new FastToolCalls(t, this.client, (error) => this.requestFailure(error)));
  }

  /** `resources/read` (never from a cache); rejects with `McpRequestError`. */
  readResource(uri: string, limits: RequestLimits): Promise<ReadResourceResult> {
    return readResource(this.client, this, uri, limits);
  }

  /** `prompts/get`; rejects with `McpRequestError`. */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    limits: RequestLimits,
  ): Promise<GetPromptResult> {
    return getPrompt(this.client, this, name, args, limits);
  }

  /** Every item of one of the server's lists, fetched live page by page. */
  async list<K extends ListKind>(kind: K, limits: RequestLimits): Promise<ListItems[K][]> {
    return this.inventory.listAll(kind, limits);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.stopHealthCheck();
    this.changes?.stop();
    this.tasks.close();
    try {
      await this.client.close();
    } catch {
      // closing is best-effort; the transport's own close kills the process group
    }
    await this.transport?.close().catch(() => undefined);
  }

  /** Why the connection ended, for people (exit status, signal, oversized message, ping). */
  closeReason(): string {
    return endReason(this.transport, this.healthFailure);
  }

  /**
   * After connect: follow list changes (on 2026-07-28 a listen stream, opened with the first
   * listings), health and the end of the connection.
   */
  private follow(timeoutMs: number): void {
    const interval = this.config.supervision?.healthCheckIntervalMs ?? null;
    if (interval !== null) {
      this.stopHealthCheck = startHealthCheck(this.client, interval, (reason) => {
        if (this.closing) return;
        this.healthFailure = reason;
        void this.transport?.close();
      });
    }
    const changed = () => this.inventory.listChanged();
    this.client.setNotificationHandler('notifications/tools/list_changed', changed);
    this.client.setNotificationHandler('notifications/resources/list_changed', changed);
    this.client.setNotificationHandler('notifications/prompts/list_changed', changed);
    const filter =
      this.client.getProtocolEra() === 'modern' ? changeFilter(this.capabilities) : null;
    if (filter) {
      this.changes = new ChangeStream(this.client, filter, { timeoutMs, onReopened: changed });
    }
    const previousOnClose = this.client.onclose;
    this.client.onclose = () => {
      this.ended = true;
      void this.changes?.stop();
      previousOnClose?.();
      if (!this.closing && this.readyFlag) this.listener.onClosed(this.closeReason());
    };
  }

  /** A request failed: translated once the connection's end is known (requestErrors.ts). */
  private requestFailure(error: unknown): Promise<McpRequestError> {
    return settledFailure(error, this);
  }
}
