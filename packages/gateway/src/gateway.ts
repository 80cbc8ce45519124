/**
 * The gateway: one runtime session behind one MCP server. It selects the given environments (in
 * order), starts every registration, relays their elicitations to whichever client request is
 * waiting on that registration, tells connected clients when the inventory changes, and reports
 * failing servers as log messages (MCP `notifications/message` and stderr) — never by failing
 * itself. Transports (stdio.ts, http/) ask `createServer` for server instances; the gateway owns
 * the session, not the runtime.
 */

import { UnknownEnvironmentError, scopeLabel } from '@mcprt/runtime';
import type {
  ElicitationRequest,
  ElicitationResponse,
  Runtime,
  SessionEnvironment,
  Session,
  StartupStatusEvent,
  ToolView,
} from '@mcprt/runtime';
import type { Server } from '@modelcontextprotocol/server';

import { Catalog } from './catalog.js';
import { HandoverTable } from './handover.js';
import { LoginWatch } from './loginWatch.js';
import { ChangeNotifier, logTo } from './notifier.js';
import { OperationTable } from './operations.js';
import { createGatewayServer } from './serverFactory.js';
import type { GatewayCore } from './serverFactory.js';
import { defaultLoginCommand, startupMessage, statusDocument } from './status.js';
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
  /** How long the first listings wait for servers still starting (default 10 s). */
  readonly settleWaitMs?: number;
  /** How long an elicitation may wait for the client's answer (default 10 min). */
  readonly inputTimeoutMs?: number;
}

const DEFAULT_SETTLE_WAIT_MS = 10_000;
const DEFAULT_INPUT_TIMEOUT_MS = 600_000;

export class Gateway implements GatewayCore {
  readonly session: Session;
  readonly catalog: Catalog;
  readonly operations: OperationTable;
  readonly handovers = new HandoverTable();
  readonly notifier = new ChangeNotifier();
  readonly instructions: string;
  readonly inputTimeoutMs: number;
  private readonly loginCommand: LoginCommand;
  private readonly writeLine: (line: string) => void;
  private startup: Promise<void> | null = null;
  private readonly loginWatch: LoginWatch;
  private readonly settleWaitMs: number;
  private closed = false;

  constructor(options: GatewayOptions) {
    const cwd = options.cwd ?? process.cwd();
    this.loginCommand = options.loginCommand ?? defaultLoginCommand;
    this.writeLine = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.settleWaitMs = options.settleWaitMs ?? DEFAULT_SETTLE_WAIT_MS;
    this.inputTimeoutMs = options.inputTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS;
    this.operations = new OperationTable(this.inputTimeoutMs + 5_000);
    const environments = selectEnvironments(options.runtime, options.environments, cwd);
    this.session = options.runtime.startSession({
      cwd,
      // Servers start with the first client (`start()`): a connection that only probes the
      // protocol version (the SDK's stdio `server/discover` sibling) never starts any.
      lazy: true,
      view: options.view ?? options.runtime.config.serve.view,
      ...(environments !== undefined ? { environments } : {}),
      ...(options.sandboxState !== undefined ? { sandboxState: options.sandboxState } : {}),
      onElicitation: (request) => this.elicit(request),
    });
    this.instructions = instructionsFor(
      this.session.environments.map((e) => e.environmentId),
      this.session.view,
      this.session.toolView(),
    );
    this.catalog = new Catalog(
      this.session,
      () => this.settled(),
      (message) => this.log('warning', message),
    );
    this.loginWatch = new LoginWatch(this.session, (scope) =>
      this.log('info', `credentials for \`${scopeLabel(scope)}\` are stored now; reconnecting`),
    );
    this.session.on('startupStatus', (event) => this.onStartup(event));
    this.session.on('inventoryChanged', () => this.notifier.changed());
    this.session.on('environmentRegistrations', ({ environmentId, error }) => {
      this.notifier.changed();
      if (error !== null) {
        this.log('warning', `environment \`${environmentId}\`'s own config was not read: ${error}`);
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
  }

  /** Startup has settled, or the settle wait is over (whichever comes first). */
  settled(): Promise<void> {
    this.start();
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.settleWaitMs);
      timer.unref();
    });
    return Promise.race([this.startup!, wait]).finally(() => clearTimeout(timer));
  }

  statusText(): string {
    return statusDocument(this.session, this.loginCommand);
  }

  /**
   * A server instance for one serving unit. `track`: a long-lived connection (stdio, a 2025 HTTP
   * session) that should hear of inventory changes and log messages; 2026-07-28 HTTP requests
   * are served by short-lived instances and hear of changes through their listen streams.
   */
  createServer(options: { era: 'legacy' | 'modern'; track: boolean }): Server {
    const server = createGatewayServer(this);
    // A 2025 connection has sent `initialize`: it is a real client, not a version probe.
    if (options.era === 'legacy') this.start();
    if (!options.track) return server;
    let forget: (() => void) | undefined;
    const attach = () => {
      forget ??= this.notifier.addServer(server);
    };
    if (options.era === 'legacy') {
      // After the handshake: then tell the newcomer what is already wrong.
      server.oninitialized = () => {
        attach();
        for (const line of this.problems()) void logTo(server, line.level, line.message);
      };
    } else {
      attach();
    }
    server.onclose = () => forget?.();
    return server;
  }

  /** Log to stderr and to every connected client. */
  log(level: LogLevel, message: string): void {
    this.writeLine(`mcprt serve: ${level}: ${message}`);
    this.notifier.log(level, message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.loginWatch.stop();
    this.operations.cancelAll(new Error('the gateway is shutting down'));
    this.notifier.close();
    await this.session.close();
  }

  /** Relay an underlying server's elicitation to the request waiting on that registration. */
  private elicit(request: ElicitationRequest): Promise<ElicitationResponse> {
    const operation = this.operations.forScope(request.scope);
    if (operation !== undefined) return operation.offer(request);
    this.log(
      'warning',
      `MCP server \`${scopeLabel(request.scope)}\` asked for input outside any request of this gateway's clients; declined`,
    );
    return Promise.resolve({ action: 'decline' });
  }

  private onStartup(event: StartupStatusEvent): void {
    this.notifier.changed();
    const status = this.session
      .listStatus({ serverName: event.name, environmentId: event.environmentId })
      .at(0);
    const line = startupMessage(event, status, this.loginCommand);
    if (line !== null) this.log(line.level, line.message);
  }

  /** Current failures, as the log lines a client connecting now would have missed. */
  private problems(): { level: LogLevel; message: string }[] {
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
      return line === null ? [] : [line];
    });
  }
}

/** The session's environments: the given ids in order (`local` is implicit), each with its cwd. */
function selectEnvironments(
  runtime: Runtime,
  ids: readonly string[] | undefined,
  cwd: string,
): SessionEnvironment[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  const registry = runtime.environments;
  const selected: SessionEnvironment[] = [];
  for (const id of ids) {
    if (!registry.has(id)) throw new UnknownEnvironmentError(id);
    if (id === 'local' || selected.some((e) => e.environmentId === id)) continue;
    selected.push({ environmentId: id, cwd: registry.get(id)?.defaultCwd ?? cwd });
  }
  return selected;
}

function instructionsFor(
  environments: readonly string[],
  viewName: string | null,
  view: ToolView,
): string {
  const where =
    environments.length === 0
      ? 'this machine'
      : `this machine and the environments ${environments.map((e) => `\`${e}\``).join(', ')}`;
  const search = view.selection.config?.toolSearch ?? 'off';
  return [
    viewName === null
      ? `mcprt gateway: the tools, resources and prompts of every MCP server mcprt runs on ${where}.`
      : `mcprt gateway: the tools, resources and prompts of view \`${viewName}\` of the MCP servers mcprt runs on ${where}.`,
    view.prefixMode === 'conditional'
      ? 'Each tool title and description names its `server@environment`.'
      : 'Tool names are `<environment>__<server>__<tool>` (`<server>__<tool>` for servers of this machine); each title and description names its `server@environment`.',
    ...(search === 'off'
      ? []
      : [
          "When the listed tools do not cover a task, call `search_tools` with what you want to do (and where), `get_tool_details` for a tool's arguments, then `call_tool` with its exact name.",
        ]),
    `The resource mcprt://gateway/status lists every server, its state and how to fix a failing one.`,
  ].join(' ');
}
