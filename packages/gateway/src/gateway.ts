/**
 * The gateway: one runtime session behind one MCP server. It selects the given environments (in
 * order), starts every registration, relays their elicitations to whichever client request is
 * waiting on that registration, tells connected clients when the inventory changes, and reports
 * failing servers as log messages (MCP `notifications/message` and stderr) — never by failing
 * itself. Transports (stdio.ts, http/) ask `createServer` for server instances; the gateway owns
 * the session, not the runtime.
 */

import { scopeLabel } from '@mcprt/runtime';
import type {
  ElicitationRequest,
  ElicitationResponse,
  RegistrationScope,
  Runtime,
  ServePolicyConfig,
  Session,
  StartupStatusEvent,
} from '@mcprt/runtime';
import type { Server } from '@modelcontextprotocol/server';

import type { Caller } from './caller.js';
import { LOCAL_CALLER } from './caller.js';
import { Catalog } from './catalog.js';
import { ClientCore } from './client.js';
import type { SharedCore } from './client.js';
import { instructionsFor, selectEnvironments } from './gatewaySetup.js';
import { grantFor } from './policy.js';
import { GatewayTaskTable } from './taskTable.js';
import { HandoverTable } from './handover.js';
import { LoginWatch } from './loginWatch.js';
import { ChangeNotifier, logTo } from './notifier.js';
import { Observability } from './observability/observability.js';
import { OperationTable } from './operationTable.js';
import { TaskInputs } from './taskInputs.js';
import { createGatewayServer } from './serverFactory.js';
import { defaultLoginCommand, startupMessage, statusDocument } from './status.js';
import { messageDeclaresApps } from './uiResources.js';
import type { LogLevel, LoginCommand } from './status.js';

export interface GatewayOptions {
  readonly runtime: Runtime;
  /** Environment ids to select, in routing order (default: every configured environment). */
  readonly environments?: readonly string[];
  /** The session's local cwd (default: this process's). */
  readonly cwd?: string;
  /**
   * The `[views.NAME]` the gateway serves (docs/tool-shaping.md; default: `[serve] view`, else
   * the whole inventory). An unknown or invalid view throws `UnknownViewError`.
   */
  readonly view?: string | null;
  /** The thread's sandbox state, used for calls whose client sends none (docs/gateway.md). */
  readonly sandboxState?: unknown;
  /** How log messages name the login command (default `mcprt mcp login NAME --environment E`). */
  readonly loginCommand?: LoginCommand;
  /** Where log lines go besides MCP clients (default: stderr). Never stdout: stdio is MCP. */
  readonly log?: (line: string) => void;
  /**
   * The most the first listings wait for servers still starting, in ms (default: `[serve]
   * startup_wait_sec`); each server is waited for up to its own `startup_timeout_sec`.
   */
  readonly settleWaitMs?: number;
  /** How long an elicitation may wait for the client's answer (default 10 min). */
  readonly inputTimeoutMs?: number;
}

const DEFAULT_INPUT_TIMEOUT_MS = 600_000;

export class Gateway implements SharedCore {
  readonly session: Session;
  /** The catalog of the gateway's own view: the local client's, and callers' without a policy. */
  readonly catalog: Catalog;
  /** The view of the gateway (`--view`, `[serve] view`; null: the whole inventory). */
  readonly view: string | null;
  readonly operations: OperationTable;
  readonly handovers = new HandoverTable();
  readonly tasks = new GatewayTaskTable();
  readonly notifier = new ChangeNotifier();
  /** Health, readiness and metrics (`/healthz`, `/readyz`, `/metrics` on the HTTP listener). */
  readonly observability: Observability;
  readonly instructions: string;
  readonly inputTimeoutMs: number;
  private readonly loginCommand: LoginCommand;
  private readonly writeLine: (line: string) => void;
  private startup: Promise<void> | null = null;
  private readonly loginWatch: LoginWatch;
  private readonly settleWaitMs: number;
  private settling: Promise<void> | null = null;
  private readonly policies: readonly ServePolicyConfig[];
  /** One catalog per granted (view, environments), shared by the clients granted it. */
  private readonly catalogs = new Map<string, Catalog>();
  private readonly localClient: ClientCore;
  private closed = false;
  /** Servers are told the host renders MCP Apps (a stdio client declared it; HTTP: always). */
  private appsUpstream = false;

  constructor(options: GatewayOptions) {
    const cwd = options.cwd ?? process.cwd();
    this.loginCommand = options.loginCommand ?? defaultLoginCommand;
    this.writeLine = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.settleWaitMs = options.settleWaitMs ?? options.runtime.config.serve.startupWaitSec * 1000;
    this.inputTimeoutMs = options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS;
    this.operations = new OperationTable(this.inputTimeoutMs + 5_000);
    const environments = selectEnvironments(options.runtime, options.environments, cwd);
    this.view = options.view ?? options.runtime.config.serve.view;
    this.policies = options.runtime.config.serve.policies;
    this.session = options.runtime.startSession({
      cwd,
      // Servers start with the first client (`start()`): a connection that only probes the
      // protocol version (the SDK's stdio `server/discover` sibling) never starts any.
      lazy: true,
      // With policies each caller's view is its own (the clients' catalogs hold them to it);
      // without, the session itself holds every call to the gateway's view.
      view: this.policies.length > 0 ? null : this.view,
      ...(environments !== undefined ? { environments } : {}),
      ...(options.sandboxState !== undefined ? { sandboxState: options.sandboxState } : {}),
      onElicitation: (request) => this.elicit(request),
      // MCP Apps are declared to servers when the host renders them (uiResources.ts).
      mcpApps: () => this.appsUpstream,
    });
    this.observability = new Observability(this.session, this.operations, {
      metricsPublic: options.runtime.config.serve.metricsPublic,
      settleWaitMs: this.settleWaitMs,
    });
    // Every view a caller may be granted must exist (UnknownViewError otherwise): a typo must
    // never widen what a caller sees.
    for (const policy of this.policies)
      if (policy.view !== null) this.session.toolView(policy.view);
    this.instructions = instructionsFor(
      this.session.environments.map((e) => e.environmentId),
      this.view,
      this.session.toolView(this.view),
    );
    this.catalog = this.catalogFor(this.view, null);
    this.localClient = new ClientCore(this, LOCAL_CALLER, {
      catalog: this.catalog,
      view: this.view,
      policy: null,
      refused: null,
      narrowed: false,
    });
    this.loginWatch = new LoginWatch(this.session, (scope) =>
      this.log(
        'info',
        `credentials for \`${scopeLabel(scope)}\` are stored now; reconnecting`,
        scope,
      ),
    );
    this.session.on('startupStatus', (event) => this.onStartup(event));
    this.session.on('inventoryChanged', () => this.notifier.changed());
    this.session.on('environmentRegistrations', ({ environmentId, error }) => {
      this.notifier.changed();
      if (error !== null) {
        this.log(
          'warning',
          `environment \`${environmentId}\`'s own config was not read: ${error}`,
          environmentId,
        );
      }
    });
  }

  /** Start every registration (idempotent); status and failures are reported as they come. */
  start(): void {
    if (this.startup !== null || this.closed) return;
    this.session.start();
    this.loginWatch.start();
    this.startup = this.session.ready().then(
      () => undefined,
      () => undefined, // required servers that failed are reported per server, like the others
    );
    // Tasks an earlier run left unfinished are followed again to their end (in the history).
    void this.startup.then(() => this.closed || this.session.tasks.resumeAll());
  }

  /**
   * Startup has settled — every registration ready or failed, each within its own
   * `startup_timeout_sec` — or the bound (`settleWaitMs`) has passed, whichever comes first.
   * Decided once: only the first listings wait, and those still starting then are logged.
   */
  settled(): Promise<void> {
    this.start();
    const startup = this.startup;
    if (startup === null) return Promise.resolve();
    this.settling ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.stoppedWaiting();
        resolve();
      }, this.settleWaitMs);
      timer.unref();
      void startup.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.settling;
  }

  /** The bound passed: name every registration the first listings did not wait for. */
  private stoppedWaiting(): void {
    const after = `${Math.round(this.settleWaitMs / 100) / 10} s`;
    for (const status of this.session.listStatus()) {
      if (status.startupStatus !== 'starting') continue;
      this.log(
        'warning',
        `stopped waiting for MCP server \`${scopeLabel(status.scope)}\` (still starting after ${after}, [serve] startup_wait_sec); its tools are listed once it is ready`,
        status.scope,
      );
    }
  }

  statusText(shown?: (scope: RegistrationScope) => boolean): string {
    return statusDocument(this.session, this.loginCommand, shown);
  }

  /**
   * A server instance for one serving unit. `track`: a long-lived connection (stdio, a 2025 HTTP
   * session) that should hear of inventory changes and log messages; 2026-07-28 HTTP requests
   * are served by short-lived instances and hear of changes through their listen streams.
   */
  createServer(options: {
    era: 'legacy' | 'modern';
    track: boolean;
    /** Who is served (default: the local client). */
    caller?: Caller;
    /** The client object to serve (the stdio connection's, shared with its fast path). */
    client?: ClientCore;
  }): Server {
    const client =
      options.client ??
      (options.caller === undefined ? this.localClient : this.clientFor(options.caller));
    const server = createGatewayServer(client);
    // A 2025 connection has sent `initialize`: it is a real client, not a version probe.
    if (options.era === 'legacy') this.start();
    if (!options.track) return server;
    let forget: (() => void) | undefined;
    const audience = { hears: (about: RegistrationScope | string) => client.catalog.hears(about) };
    const attach = () => {
      forget ??= this.notifier.addServer(server, audience);
    };
    if (options.era === 'legacy') {
      // After the handshake: then tell the newcomer what is already wrong.
      server.oninitialized = () => {
        attach();
        for (const line of this.problems()) {
          if (audience.hears(line.scope)) void logTo(server, line.level, line.message);
        }
      };
    } else {
      attach();
    }
    server.onclose = () => forget?.();
    return server;
  }

  /** The local client: the process that started the gateway (stdio). */
  local(): ClientCore {
    return new ClientCore(this, LOCAL_CALLER, this.localClient.access);
  }

  /** A client of `caller`, with the access its policy grants (policy.ts). */
  clientFor(caller: Caller): ClientCore {
    if (caller.kind === 'local' || this.policies.length === 0) {
      return new ClientCore(this, caller, this.localClient.access);
    }
    const grant = grantFor(caller, this.policies);
    if ('refused' in grant) {
      return new ClientCore(this, caller, {
        catalog: this.catalogFor(this.view, new Set()),
        view: this.view,
        policy: null,
        refused: grant.refused,
        narrowed: true,
      });
    }
    const view = grant.view ?? this.view;
    const environments = grant.environments === null ? null : new Set(grant.environments);
    return new ClientCore(this, caller, {
      catalog: this.catalogFor(view, environments),
      view,
      policy: grant.policy,
      refused: null,
      narrowed: environments !== null,
    });
  }

  /**
   * The gateway may serve several clients at once (it listens on HTTP): each operation's call then
   * carries its origin, so elicitations reach the client whose call asked (operations.ts).
   */
  servesManyClients(): void {
    this.operations.attributing = true;
    // Its clients share the servers' connections: app-only tools are hidden per client instead.
    this.appsUpstream = true;
  }

  /** A stdio client's message, before it is served: does the client render MCP Apps? */
  noteClientMessage(message: unknown): void {
    if (!this.appsUpstream && messageDeclaresApps(message)) this.appsUpstream = true;
  }

  /**
   * Log to stderr only: for lines a request caused (a rejected request, a transport error), whose
   * text may be the requester's own and must never reach the other clients.
   */
  logLocal(level: LogLevel, message: string): void {
    this.writeLine(`mcprt serve: ${level}: ${message}`);
  }

  /**
   * Log to stderr and to every connected client (the gateway's own state: server failures); a
   * line `about` one registration only to the clients whose policy lets them list it.
   */
  log(level: LogLevel, message: string, about?: RegistrationScope | string): void {
    this.writeLine(`mcprt serve: ${level}: ${message}`);
    this.notifier.log(level, message, about);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.loginWatch.stop();
    this.operations.cancelAll(new Error('the gateway is shutting down'));
    this.notifier.close();
    await this.session.close();
  }

  /**
   * Relay an underlying server's elicitation to the operation whose call asked (operations.ts),
   * never to another client's: one it cannot attribute is declined, and said on stderr only.
   */
  private elicit(request: ElicitationRequest): Promise<ElicitationResponse> {
    // A question during a task the gateway holds for a client waits for that client (tasks.ts).
    if (request.origin instanceof TaskInputs) return request.origin.offer(request);
    const target = this.operations.forElicitation(request);
    if (target !== undefined && !('ambiguous' in target)) return target.offer(request);
    this.logLocal(
      'warning',
      target === undefined
        ? `MCP server \`${scopeLabel(request.scope)}\` asked for input outside any request of this gateway's clients; declined`
        : `MCP server \`${scopeLabel(request.scope)}\` asked for input while calls of ${target.ambiguous} clients were waiting on it, and its request does not say which call it belongs to (a 2025 stdio server's never does); declined`,
    );
    return Promise.resolve({ action: 'decline' });
  }

  private catalogFor(view: string | null, environments: ReadonlySet<string> | null): Catalog {
    const key = `${view ?? ''}\u0000${environments === null ? '*' : [...environments].sort().join('\u0000')}`;
    let catalog = this.catalogs.get(key);
    if (catalog === undefined) {
      catalog = new Catalog(
        this.session,
        () => this.settled(),
        (message) => this.log('warning', message),
        view,
        environments,
      );
      this.catalogs.set(key, catalog);
    }
    return catalog;
  }

  private onStartup(event: StartupStatusEvent): void {
    const status = this.session
      .listStatus({ serverName: event.name, environmentId: event.environmentId })
      .at(0);
    // A restarting registration's tools stay listed: clients hear once it is back or gave up.
    if (status?.restarting !== true) this.notifier.changed();
    const line = startupMessage(event, status, this.loginCommand);
    if (line !== null) this.log(line.level, line.message, event.scope);
  }

  /** Current failures, as the log lines a client connecting now would have missed. */
  private problems(): { level: LogLevel; message: string; scope: RegistrationScope }[] {
    return this.session.listStatus().flatMap((status) => {
      if (status.startupStatus !== 'failed') return [];
      const line = startupMessage(
        {
          threadId: this.session.threadId,
          scope: status.scope,
          name: status.name,
          environmentId: status.environmentId,
          status: 'failed',
          error: status.error,
          failureKind: status.failureKind,
        },
        status,
        this.loginCommand,
      );
      return line === null ? [] : [{ ...line, scope: status.scope }];
    });
  }
}
