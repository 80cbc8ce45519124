/**
 * One registration inside a session: its config (or the config error that makes it fail alone),
 * its connection identity and its state (registrationState.ts). Owns the lifecycle of a single
 * server — start once, restart after a crash under the restart policy, re-initialize a lost HTTP
 * session, stop — and reports every visible transition to the session. A failure here never
 * throws past this class: it becomes state.
 */

import type { ServerConfig } from '../config/types.js';
import type { ConnectionAuth } from '../connection/mcpClient.js';
import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { RevisionVerdicts } from '../connection/revisionVerdicts.js';
import { ServerConnection } from '../connection/connection.js';
import { failedToStart, StartupFailure } from '../connection/startupErrors.js';
import type { ElicitationResponse, ServerElicitation } from '../elicitation/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import { ServerUnavailableError } from '../errors.js';
import type { RegistrationScope } from '../scope.js';
import { scopeLabel } from '../scope.js';
import type { PlannedLaunch, RegistrationSource } from './registrationPlan.js';
import { resolvePlan } from './registrationPlan.js';
import type { Failure, RegistrationState, StatusFields } from './registrationState.js';
import { connectionOf, statusOf } from './registrationState.js';
import { nextRestart, RETRYABLE, STABLE_AFTER_MS } from './restartPolicy.js';
import type { FailureKind, StartupStatus } from './status.js';

export type { RegistrationSource } from './registrationPlan.js';

export interface RegistrationHooks {
  /** A visible transition (startup status events); `status` is the new startup status. */
  onStartup(reg: Registration, status: StartupStatus): void;
  onInventoryChanged(reg: Registration): void;
  onElicitation(reg: Registration, request: ServerElicitation): Promise<ElicitationResponse>;
}

export interface RegistrationContext {
  readonly environments: EnvironmentRegistry;
  readonly processEnv: NodeJS.ProcessEnv;
  /** The session's cwd for an execution environment (null when it has none). */
  readonly cwdFor: (environmentId: string) => string | null;
  /** Whether the session selected this (configured) execution environment. */
  readonly isSelected: (environmentId: string) => boolean;
  /** OAuth credentials for HTTP transports. */
  readonly auth?: ConnectionAuth;
  /** The protocol revision each scope negotiated (a restart does not probe again). */
  readonly revisions?: RevisionVerdicts;
  /** Extensions the session declares to servers (MCP Apps), read per connection attempt. */
  readonly clientExtensions?: () => Record<string, Record<string, unknown>> | undefined;
}

export class Registration {
  readonly scope: RegistrationScope;
  readonly label: string;
  /** What forces a restart on reload when it changes (transport, env values, cwd, …). */
  readonly identity: string;
  /** Restarts so far (all time). */
  restartCount = 0;
  /** How the last server process ended (stdio). */
  lastExit: { code: number | null; signal: string | null } | null = null;
  private stateValue: RegistrationState = { kind: 'idle' };
  private consecutiveRestarts = 0;
  private readonly planned: PlannedLaunch;
  private readonly abort = new AbortController();
  private started: Promise<void> | null = null;
  private lastStderr: string[] = [];

  constructor(
    public source: RegistrationSource,
    private readonly ctx: RegistrationContext,
    private readonly hooks: RegistrationHooks,
  ) {
    this.scope = source.config.scope;
    this.label = scopeLabel(this.scope);
    this.planned = resolvePlan(source, ctx.environments, {
      environmentCwd: ctx.cwdFor,
      processEnv: ctx.processEnv,
    });
    this.identity = JSON.stringify(
      'plan' in this.planned
        ? { plan: this.planned.plan, env: this.planned.config.executionEnvironmentId }
        : { failure: this.planned.failure.message },
    );
  }

  get state(): RegistrationState {
    return this.stateValue;
  }

  /** Startup and connection status, error and failure kind, as status reports them. */
  get status(): StatusFields {
    return statusOf(this.stateValue, this.enabled);
  }

  /** The live connection of a ready registration; null otherwise. */
  get live(): ServerConnection | null {
    return this.stateValue.kind === 'ready' ? this.stateValue.connection : null;
  }

  /** The connection being started or live (status shows its pid and stderr); null otherwise. */
  get connection(): ServerConnection | null {
    return connectionOf(this.stateValue);
  }

  /** True between a crash (or lost session) and the restarted server being ready or given up. */
  get restarting(): boolean {
    return this.stateValue.kind === 'reconnecting';
  }

  /**
   * The tools the inventory lists for it: a ready registration's, and while it restarts the
   * last ones its server listed (a call waits for the restart, `restart_wait_sec`); null when it
   * is neither (not started, starting for the first time, failed, stopped, disabled).
   */
  get tools(): readonly ToolDefinition[] | null {
    const s = this.stateValue;
    if (s.kind === 'ready') return s.connection.tools;
    return s.kind === 'reconnecting' && this.enabled ? s.tools : null;
  }

  /** Enabled in config, and its execution environment is selected by the session. */
  get enabled(): boolean {
    return this.source.config.enabled && this.notSelectedReason === null;
  }

  /**
   * Why a thread-wide server does not run in this session although it is enabled: it executes
   * in an environment the session did not select (Codex lists it as disabled). Null otherwise.
   */
  get notSelectedReason(): string | null {
    const config = this.config;
    if (!config || config.scope.environmentId !== null) return null;
    const envId = config.executionEnvironmentId;
    if (envId === 'local' || !this.ctx.environments.has(envId) || this.ctx.isSelected(envId))
      return null;
    return `it runs in environment \`${envId}\`, which this thread did not select`;
  }

  get required(): boolean {
    return this.source.config.required;
  }

  get config(): ServerConfig | null {
    return this.source.kind === 'valid' ? this.source.config : null;
  }

  stderrTail(): string[] {
    return this.connection?.stderrTail() ?? this.lastStderr;
  }

  /** Start once; later calls return the same promise. Never rejects. */
  start(): Promise<void> {
    this.started ??= this.run(false);
    return this.started;
  }

  /** Resolves when startup has settled (ready, failed or cancelled). */
  settled(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  /**
   * Stop: cancel a pending startup or restart, close the connection. With a reason, the
   * registration reports it (`cancelled` or `failed`); without one it closes quietly.
   */
  async stop(reason?: {
    status: 'cancelled' | 'failed';
    error: string;
    kind: FailureKind;
  }): Promise<void> {
    this.abort.abort();
    const connection = this.connection;
    const quietly: RegistrationState = { kind: 'closed', outcome: 'cancelled', failure: null };
    if (this.stateValue.kind !== 'idle') this.stateValue = quietly;
    await connection?.close();
    await this.started?.catch(() => undefined);
    if (reason) {
      this.transition({
        kind: 'closed',
        outcome: reason.status,
        failure: { message: reason.error, kind: reason.kind },
      });
    }
  }

  /**
   * Re-initialize now (e.g. an HTTP server lost our session): a fresh connection replaces
   * `stale`. Concurrent callers that saw the same stale connection share one reconnect.
   * Resolves with the new connection; throws ServerUnavailableError if it does not come back.
   */
  async reconnect(stale: ServerConnection, reason: string): Promise<ServerConnection> {
    if (this.connection === stale) {
      const tools = this.tools ?? [];
      void stale.close();
      this.transition({
        kind: 'reconnecting',
        failure: {
          message: `MCP server \`${this.label}\`: ${reason}; re-initializing`,
          kind: 'crashed',
        },
        connection: null,
        tools,
      });
      this.started = this.run(true);
    }
    await this.started;
    const live = this.live;
    if (!live) {
      throw new ServerUnavailableError(
        this.label,
        this.status.error ?? 'it could not re-initialize',
      );
    }
    return live;
  }

  private async run(isRestart: boolean): Promise<void> {
    if (!this.enabled || this.abort.signal.aborted) return;
    if (!isRestart) this.transition({ kind: 'starting', connection: null });
    if ('failure' in this.planned) {
      this.fail(this.planned.failure);
      return;
    }
    const { config, environment, plan } = this.planned;
    const connection: ServerConnection = new ServerConnection(
      config,
      environment,
      plan,
      {
        onInventoryChanged: () => this.hooks.onInventoryChanged(this),
        onClosed: (reason: string) => this.onCrash(connection, reason),
        onElicitation: (request: ServerElicitation) => this.hooks.onElicitation(this, request),
        clientExtensions: () => this.ctx.clientExtensions?.(),
      },
      this.ctx.auth,
      this.ctx.revisions?.slot(this.scope, this.identity),
    );
    this.attach(connection);
    try {
      await connection.start(this.abort.signal);
      if (this.abort.signal.aborted) throw new StartupFailure('cancelled', 'MCP startup cancelled');
      this.transition({ kind: 'ready', connection });
      // Stable for a while: later crashes start a fresh backoff sequence.
      setTimeout(() => {
        if (this.live === connection) this.consecutiveRestarts = 0;
      }, STABLE_AFTER_MS).unref();
    } catch (error) {
      this.lastStderr = connection.stderrTail();
      this.lastExit = connection.exitInfo ?? this.lastExit;
      this.detach(connection);
      await connection.close();
      const failure =
        error instanceof StartupFailure
          ? error
          : failedToStart(config, String(error), 'error', error);
      // A restart that fails to come back is retried with backoff; a first start is not
      // (Codex: it stays failed until reload), nor are causes a retry cannot fix.
      if (isRestart && RETRYABLE.has(failure.kind)) {
        this.scheduleRestart({ message: failure.message, kind: failure.kind }, this.tools ?? []);
        return;
      }
      this.fail(failure);
    }
  }

  /** The connection being started belongs to the current (starting or reconnecting) state. */
  private attach(connection: ServerConnection): void {
    const s = this.stateValue;
    if (s.kind === 'starting' || s.kind === 'reconnecting') this.stateValue = { ...s, connection };
  }

  private detach(connection: ServerConnection): void {
    const s = this.stateValue;
    if ((s.kind === 'starting' || s.kind === 'reconnecting') && s.connection === connection)
      this.stateValue = { ...s, connection: null };
  }

  private fail(failure: StartupFailure): void {
    this.transition(
      failure.kind === 'cancelled'
        ? {
            kind: 'closed',
            outcome: 'cancelled',
            failure: { message: failure.message, kind: 'cancelled' },
          }
        : { kind: 'failed', failure: { message: failure.message, kind: failure.kind } },
    );
  }

  private onCrash(connection: ServerConnection, reason: string): void {
    if (this.connection !== connection) return;
    this.lastStderr = connection.stderrTail();
    this.lastExit = connection.exitInfo ?? null;
    // Read before the connection closes: the tools stay listed while the server restarts.
    const tools = this.tools ?? [];
    void connection.close();
    this.scheduleRestart(
      { message: `MCP server \`${this.label}\` stopped: ${reason}`, kind: 'crashed' },
      tools,
    );
  }

  /**
   * Restart under the policy (restartPolicy.ts), or stay failed once it gives up. `tools`: the
   * last ones the server listed, kept in the inventory until then.
   */
  private scheduleRestart(failure: Failure, tools: readonly ToolDefinition[]): void {
    const next = nextRestart(
      this.config?.supervision,
      this.consecutiveRestarts,
      this.abort.signal.aborted,
    );
    if (!next.restart) {
      this.transition({
        kind: 'failed',
        failure: { message: `${failure.message}${next.suffix}`, kind: failure.kind },
      });
      return;
    }
    this.consecutiveRestarts = next.attempt;
    this.restartCount += 1;
    this.transition({
      kind: 'reconnecting',
      failure: {
        message: `${failure.message}; restarting (attempt ${next.attempt} of ${next.of}) in ${next.delayMs} ms`,
        kind: failure.kind,
      },
      connection: null,
      tools,
    });
    this.started = this.sleep(next.delayMs).then(() => this.run(true));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.abort.signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), {
        once: true,
      });
    });
  }

  private transition(next: RegistrationState): void {
    this.stateValue = next;
    const status = this.status.startupStatus;
    if (status !== null) this.hooks.onStartup(this, status);
  }
}
