/**
 * One live MCP connection for one registration scope: builds the transport from a launch plan,
 * runs `initialize` and the first listings under the startup timeout, keeps the server's tools,
 * resources and templates current on `list_changed`, and forwards tool calls and resource reads
 * with the configured tool timeout. Failures become typed `StartupFailure`s with Codex's texts;
 * the manager turns them into status.
 */

import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  Progress,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import type { TransportAuth } from '../auth/transportAuth.js';
import type { ServerConfig } from '../config/types.js';
import { handshake, versionNegotiation } from './protocolVersion.js';
import type { ExecutionEnvironment } from '../environments/types.js';
import type { LaunchPlan } from '../launch/plan.js';
import { StdioProcessTransport } from '../launch/stdioTransport.js';
import type { ElicitationResponse } from '../elicitation/types.js';
import { checkFormReply } from './elicitationReply.js';
import { collectPages } from './paging.js';
import { ServerSkills } from './skills.js';
import { describeStartupFailure, StartupFailure } from './startupErrors.js';
import { scopeLabel } from '../scope.js';

/** Node timers fire at once beyond 2^31-1 ms (~24.8 days): clamp configured timeouts. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const clampMs = (ms: number) => Math.min(ms, MAX_TIMER_MS);

export const CLIENT_INFO: Implementation = { name: 'mcprt', title: 'mcprt', version: '0.1.0' };

/** An `elicitation/create` from the server, before scope and thread are attached. */
export interface ServerElicitation {
  readonly requestId: string | number;
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: unknown;
  readonly url?: string;
  readonly elicitationId?: string;
  readonly _meta: unknown;
  readonly signal: AbortSignal;
}

/** Where an HTTP transport gets its OAuth (the runtime's `RuntimeAuth`). */
export interface ConnectionAuth {
  transport(
    config: ServerConfig,
    baseFetch: (url: string | URL, init?: RequestInit) => Promise<Response>,
  ): TransportAuth | null;
}

export interface ConnectionListener {
  /** Tools, resources or templates changed after startup (server sent `list_changed`). */
  onInventoryChanged(): void;
  /** The server asks the user for input; resolve with the host's answer. */
  onElicitation(request: ServerElicitation): Promise<ElicitationResponse>;
  /** The transport closed unexpectedly after startup. */
  onClosed(reason: string): void;
}

export interface CallOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Request `_meta`, sent as given (an object, or any value a client forwarded untouched). */
  readonly meta?: unknown;
  readonly onProgress?: (progress: Progress) => void;
}

export class ServerConnection {
  private readonly client: Client;
  private transport: Transport | undefined;
  private closing = false;
  private healthFailure: string | null = null;
  private readyFlag = false;
  tools: Tool[] = [];
  resources: Resource[] = [];
  resourceTemplates: ResourceTemplate[] = [];
  /** Why the last resource listing failed (the server still serves its tools), or null. */
  resourcesError: string | null = null;

  constructor(
    readonly config: ServerConfig,
    private readonly environment: ExecutionEnvironment,
    private readonly plan: LaunchPlan,
    private readonly listener: ConnectionListener,
    /** OAuth for HTTP transports (none: only static headers). */
    private readonly auth?: ConnectionAuth,
  ) {
    this.client = new Client(CLIENT_INFO, {
      capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } },
      versionNegotiation: versionNegotiation(config),
    });
    this.client.setRequestHandler('elicitation/create', async (request, ctx) => {
      const p = request.params as Record<string, unknown>;
      const mode = p['mode'] === 'url' ? 'url' : 'form';
      const reply = await this.listener.onElicitation({
        requestId: ctx.mcpReq.id,
        mode,
        message: typeof p['message'] === 'string' ? p['message'] : '',
        ...(mode === 'form' ? { requestedSchema: p['requestedSchema'] } : {}),
        ...(typeof p['url'] === 'string' ? { url: p['url'] } : {}),
        ...(typeof p['elicitationId'] === 'string' ? { elicitationId: p['elicitationId'] } : {}),
        _meta: p['_meta'] ?? null,
        signal: ctx.mcpReq.signal,
      });
      if (reply.action !== 'accept') return { action: reply.action };
      const content =
        mode === 'form' ? checkFormReply(p['requestedSchema'], reply.content ?? {}) : undefined;
      return {
        action: 'accept' as const,
        ...(content !== undefined
          ? { content: content as Record<string, string | number | boolean | string[]> }
          : {}),
        ...(reply._meta ? { _meta: reply._meta } : {}),
      };
    });
  }

  /** SEP-2640 skills of this server (docs/skills.md), read lazily. */
  get skills(): ServerSkills {
    this.skillsValue ??= new ServerSkills(this.client, scopeLabel(this.config.scope));
    return this.skillsValue;
  }
  private skillsValue: ServerSkills | undefined;

  get serverInfo(): Implementation | undefined {
    return this.client.getServerVersion();
  }

  get capabilities(): ServerCapabilities | undefined {
    return this.client.getServerCapabilities();
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  /** Last stderr lines of a stdio server (empty for HTTP). */
  stderrTail(): string[] {
    return this.transport instanceof StdioProcessTransport ? this.transport.stderr.snapshot() : [];
  }

  /** How the server process ended, once it has (stdio only). */
  get exitInfo(): { code: number | null; signal: string | null } | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.exit : undefined;
  }

  /** True once the connection has ended (crash, kill, closed stream). */
  ended = false;

  get pid(): number | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.pid : undefined;
  }

  /**
   * Connect, initialize and take the first inventory. Each phase is bounded by the startup
   * timeout (as in Codex). Throws `StartupFailure` with a message for people.
   */
  async start(signal: AbortSignal): Promise<void> {
    const timeoutMs = clampMs(this.config.startupTimeoutMs);
    try {
      this.transport = this.buildTransport();
      const abort = () => void this.close();
      signal.addEventListener('abort', abort, { once: true });
      try {
        const transport = this.transport;
        await handshake(timeoutMs, signal, (handshakeSignal) =>
          this.client.connect(transport, { timeout: timeoutMs, signal: handshakeSignal }),
        );
        this.installHandlers();
        await this.refreshInventory({ timeoutMs, signal });
      } finally {
        signal.removeEventListener('abort', abort);
      }
      if (signal.aborted) throw new StartupFailure('cancelled', 'MCP startup cancelled');
      this.readyFlag = true;
    } catch (error) {
      // A pipe error (EPIPE, closed stream) usually means the process is exiting: give it a
      // moment so the failure can name the exit status and stderr instead of the pipe.
      const code = (error as { code?: unknown } | null)?.code;
      if (
        !signal.aborted &&
        code !== 'REQUEST_TIMEOUT' &&
        this.transport instanceof StdioProcessTransport
      ) {
        await this.transport.waitForExit(1000);
      }
      const failure = signal.aborted
        ? new StartupFailure('cancelled', 'MCP startup cancelled')
        : describeStartupFailure(this.config, error, this.transport);
      await this.close();
      throw failure;
    }
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const params: {
      name: string;
      arguments?: Record<string, unknown>;
      _meta?: unknown;
    } = { name };
    if (args !== undefined) params.arguments = args;
    if (options.meta !== undefined) params._meta = options.meta;
    return (await this.client.callTool(params as Parameters<Client['callTool']>[0], {
      timeout: clampMs(options.timeoutMs),
      maxTotalTimeout: clampMs(options.timeoutMs),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress
        ? { onprogress: options.onProgress, resetTimeoutOnProgress: false }
        : {}),
    })) as CallToolResult;
  }

  async readResource(
    uri: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ReadResourceResult> {
    return this.client.readResource(
      { uri },
      { timeout: clampMs(timeoutMs), cacheMode: 'bypass', ...(signal ? { signal } : {}) },
    );
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.client.getPrompt(
      { name, ...(args !== undefined ? { arguments: args } : {}) },
      { timeout: clampMs(timeoutMs), ...(signal ? { signal } : {}) },
    );
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await this.client.close();
    } catch {
      // closing is best-effort; the transport's own close kills the process group
    }
    await this.transport?.close().catch(() => undefined);
  }

  private buildTransport(): Transport {
    if (this.plan.kind === 'stdio')
      return new StdioProcessTransport(
        this.environment,
        this.plan.spec,
        this.config.supervision?.maxMessageBytes,
      );
    // An environment that tunnels HTTP (ssh) resolves the URL on its side through its fetch.
    const access = this.environment.http();
    const baseFetch = access.kind === 'tunnel' ? access.fetch : undefined;
    // OAuth (docs/auth.md): stored credentials, refreshed in time; never an interactive flow here.
    const oauth = this.auth?.transport(this.config, baseFetch ?? ((url, init) => fetch(url, init)));
    return new StreamableHTTPClientTransport(new URL(this.plan.url), {
      requestInit: { headers: this.plan.headers },
      ...(oauth
        ? {
            fetch: oauth.fetch,
            authProvider: oauth.authProvider,
            onInsufficientScope: 'throw' as const,
          }
        : baseFetch
          ? { fetch: baseFetch }
          : {}),
    });
  }

  private installHandlers(): void {
    // A flood of list_changed notifications coalesces into at most one refresh in flight plus
    // one queued behind it (backpressure: the server cannot make us list in a loop).
    let refreshing = false;
    let again = false;
    const refresh = () => {
      if (refreshing) {
        again = true;
        return;
      }
      refreshing = true;
      void this.refreshInventory({ timeoutMs: clampMs(this.config.toolTimeoutMs) })
        .then(
          () => this.listener.onInventoryChanged(),
          () => undefined,
        )
        .finally(() => {
          refreshing = false;
          if (again && !this.closing) {
            again = false;
            refresh();
          }
        });
    };
    this.startHealthCheck();
    this.client.setNotificationHandler('notifications/tools/list_changed', refresh);
    this.client.setNotificationHandler('notifications/resources/list_changed', refresh);
    this.client.setNotificationHandler('notifications/prompts/list_changed', refresh);
    const previousOnClose = this.client.onclose;
    this.client.onclose = () => {
      this.ended = true;
      previousOnClose?.();
      if (!this.closing && this.readyFlag) this.listener.onClosed(this.closeReason());
    };
  }

  /** Ping every `health_check_interval_sec`; a missed answer closes the connection (a crash). */
  private startHealthCheck(): void {
    const interval = this.config.supervision?.healthCheckIntervalMs ?? null;
    if (interval === null) return;
    const timer = setInterval(() => {
      if (this.closing) return clearInterval(timer);
      this.client.ping({ timeout: Math.min(interval, 10_000) }).catch(() => {
        if (this.closing) return;
        clearInterval(timer);
        this.healthFailure = `health check failed: no answer to ping within ${Math.min(interval, 10_000) / 1000} s`;
        void this.transport?.close();
      });
    }, interval);
    timer.unref();
  }

  /** Why the connection ended, for people (exit status, signal, oversized message, ping). */
  closeReason(): string {
    const t = this.transport;
    if (this.healthFailure) return this.healthFailure;
    if (t instanceof StdioProcessTransport && t.failure) return t.failure.message;
    if (t instanceof StdioProcessTransport && t.exit) {
      const { code, signal } = t.exit;
      return signal
        ? `server process was killed by ${signal}`
        : `server process exited with code ${code}`;
    }
    return 'connection closed';
  }

  /**
   * Every resource of the server, page by page (duplicate cursors are an error); none when it
   * does not advertise resources.
   */
  async listAllResources(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Resource[]> {
    if (!this.client.getServerCapabilities()?.resources) return [];
    return collectPages('resources/list', async (cursor) => {
      const r = await this.client.request(
        { method: 'resources/list', params: cursor === undefined ? {} : { cursor } },
        requestOptions(opts),
      );
      return { items: r.resources, nextCursor: r.nextCursor };
    });
  }

  /** Every resource template of the server, page by page (none without resources). */
  async listAllResourceTemplates(opts: {
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<ResourceTemplate[]> {
    if (!this.client.getServerCapabilities()?.resources) return [];
    return collectPages('resources/templates/list', async (cursor) => {
      const r = await this.client.request(
        { method: 'resources/templates/list', params: cursor === undefined ? {} : { cursor } },
        requestOptions(opts),
      );
      return { items: r.resourceTemplates, nextCursor: r.nextCursor };
    });
  }

  /** Every prompt of the server, page by page (none when it does not advertise prompts). */
  async listAllPrompts(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Prompt[]> {
    if (!this.client.getServerCapabilities()?.prompts) return [];
    return collectPages('prompts/list', async (cursor) => {
      const r = await this.client.request(
        { method: 'prompts/list', params: cursor === undefined ? {} : { cursor } },
        requestOptions(opts),
      );
      return { items: r.prompts, nextCursor: r.nextCursor };
    });
  }

  private async listAllTools(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Tool[]> {
    // 2026-07-28: the SDK's own listing fills its tools/list cache (SEP-2243 `Mcp-Param-*`
    // mirroring reads it) and drops tools whose `x-mcp-header` declarations are invalid.
    if (this.client.getProtocolEra() === 'modern')
      return (
        await this.client.listTools(undefined, { ...requestOptions(opts), cacheMode: 'refresh' })
      ).tools;
    return collectPages('tools/list', async (cursor) => {
      const r = await this.client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        requestOptions(opts),
      );
      return { items: r.tools, nextCursor: r.nextCursor };
    });
  }

  private async refreshInventory(opts: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    const caps = this.client.getServerCapabilities() ?? {};
    this.tools = caps.tools ? await this.listAllTools(opts) : [];
    if (caps.resources) {
      // Resources are optional extras: a server whose listing fails still serves its tools.
      const [resources, templates] = await Promise.allSettled([
        this.listAllResources(opts),
        this.listAllResourceTemplates(opts),
      ]);
      this.resources = resources.status === 'fulfilled' ? resources.value : [];
      this.resourceTemplates = templates.status === 'fulfilled' ? templates.value : [];
      this.resourcesError =
        resources.status === 'rejected'
          ? errorText(resources.reason)
          : templates.status === 'rejected'
            ? errorText(templates.reason)
            : null;
    }
  }
}

function requestOptions(opts: { timeoutMs: number; signal?: AbortSignal }) {
  return { timeout: clampMs(opts.timeoutMs), ...(opts.signal ? { signal: opts.signal } : {}) };
}

function errorText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
