/**
 * One registration inside a session: its config (or the config error that makes it fail alone),
 * its connection identity, its live connection and its status. Owns the startup sequence of a
 * single server — resolve environment, plan launch, connect — and reports transitions to the
 * session. A failure here never throws past this class: it becomes status.
 */

import type { InvalidServerConfig, ServerConfig } from '../config/types.js';
import type { ConnectionAuth, ServerElicitation } from '../connection/connection.js';
import { ServerConnection } from '../connection/connection.js';
import { failedToStart, StartupFailure } from '../connection/startupErrors.js';
import type { ElicitationResponse } from '../elicitation/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import type { LaunchPlan } from '../launch/plan.js';
import { ServerUnavailableError } from '../errors.js';
import { restartDelay, STABLE_AFTER_MS } from './backoff.js';
import { LaunchPlanError, planLaunch } from '../launch/plan.js';
import type { RegistrationScope } from '../scope.js';
import { scopeLabel } from '../scope.js';
import type { ConnectionStatus, FailureKind, StartupStatus } from './status.js';

export type RegistrationSource =
  | { readonly kind: 'valid'; readonly config: ServerConfig }
  | { readonly kind: 'invalid'; readonly config: InvalidServerConfig };

export interface RegistrationHooks {
  onStartup(reg: Registration): void;
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
}

/** Resolve where a server runs and how it is launched; any problem is a startup failure. */
function resolvePlan(
  source: RegistrationSource,
  ctx: RegistrationContext,
): { plan: LaunchPlan } | { failure: StartupFailure } {
  if (source.kind === 'invalid') {
    return { failure: new StartupFailure('config', source.config.error) };
  }
  const config = source.config;
  const envId = config.executionEnvironmentId;
  const environment = ctx.environments.get(envId);
  if (!environment) {
    if (envId === 'local') {
      return {
        failure: failedToStart(
          config,
          `local stdio MCP server \`${config.scope.name}\` requires a local environment`,
          'config',
        ),
      };
    }
    return {
      failure: failedToStart(
        config,
        `MCP server \`${config.scope.name}\` references unknown environment id \`${envId}\``,
        'config',
      ),
    };
  }
  try {
    return {
      plan: planLaunch(config, environment, {
        environmentCwd: ctx.cwdFor(envId),
        processEnv: ctx.processEnv,
      }),
    };
  } catch (error) {
    if (error instanceof LaunchPlanError)
      return { failure: failedToStart(config, error.message, 'config') };
    const message = error instanceof Error ? error.message : String(error);
    return { failure: failedToStart(config, message, 'error', error) };
  }
}

const RETRYABLE = new Set<FailureKind>(['exited', 'timeout', 'error', 'protocol_error', 'crashed']);

export class Registration {
  readonly scope: RegistrationScope;
  readonly label: string;
  startupStatus: StartupStatus | null = null;
  connectionStatus: ConnectionStatus = 'notStarted';
  error: string | null = null;
  failureKind: FailureKind | null = null;
  connection: ServerConnection | null = null;
  /** Restarts so far (all time) and in the current backoff sequence. */
  restartCount = 0;
  private consecutiveRestarts = 0;
  /** True between a crash and the restarted server being ready (or given up). */
  restarting = false;
  /** How the last server process ended (stdio). */
  lastExit: { code: number | null; signal: string | null } | null = null;
  /** What forces a restart on reload when it changes (transport, env values, cwd, …). */
  readonly identity: string;
  private readonly planned: { plan: LaunchPlan } | { failure: StartupFailure };
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
    this.planned = resolvePlan(source, ctx);
    this.identity = JSON.stringify(
      'plan' in this.planned
        ? {
            plan: this.planned.plan,
            env: source.kind === 'valid' ? source.config.executionEnvironmentId : null,
          }
        : { failure: this.planned.failure.message },
    );
    if (!this.enabled) this.connectionStatus = 'disabled';
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
    this.started ??= this.run();
    return this.started;
  }

  /** Resolves when startup has settled (ready, failed or cancelled). */
  settled(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  /** Stop: cancel a pending startup, close the connection. Status becomes `cancelled` if starting. */
  async stop(reason?: { status: StartupStatus; error: string; kind: FailureKind }): Promise<void> {
    this.abort.abort();
    const connection = this.connection;
    this.connection = null;
    await connection?.close();
    await this.started?.catch(() => undefined);
    if (reason)
      this.transition(
        reason.status,
        reason.status === 'failed' ? 'failed' : 'cancelled',
        reason.error,
        reason.kind,
      );
  }

  private async run(isRestart = false): Promise<void> {
    if (!this.enabled || this.abort.signal.aborted) return;
    if (!isRestart) this.transition('starting', 'starting', null, null);
    if ('failure' in this.planned) {
      this.fail(this.planned.failure);
      return;
    }
    const config = this.config!;
    const environment = this.ctx.environments.get(config.executionEnvironmentId)!;
    const connection: ServerConnection = new ServerConnection(
      config,
      environment,
      this.planned.plan,
      {
        onInventoryChanged: () => this.hooks.onInventoryChanged(this),
        onClosed: (reason: string) => this.onCrash(connection, reason),
        onElicitation: (request: ServerElicitation) => this.hooks.onElicitation(this, request),
      },
      this.ctx.auth,
    );
    this.connection = connection;
    try {
      await connection.start(this.abort.signal);
      if (this.abort.signal.aborted) throw new StartupFailure('cancelled', 'MCP startup cancelled');
      this.restarting = false;
      this.transition('ready', 'connected', null, null);
      // Stable for a while: later crashes start a fresh backoff sequence.
      setTimeout(() => {
        if (this.connection === connection) this.consecutiveRestarts = 0;
      }, STABLE_AFTER_MS).unref();
    } catch (error) {
      this.lastStderr = connection.stderrTail();
      this.lastExit = connection.exitInfo ?? this.lastExit;
      this.connection = null;
      await connection.close();
      const failure =
        error instanceof StartupFailure
          ? error
          : failedToStart(config, String(error), 'error', error);
      // A restart that fails to come back is retried with backoff; a first start is not
      // (Codex: it stays failed until reload), nor are causes a retry cannot fix.
      if (isRestart && RETRYABLE.has(failure.kind)) {
        this.scheduleRestart(failure.message, failure.kind);
        return;
      }
      this.restarting = false;
      this.fail(failure);
    }
  }

  private fail(failure: StartupFailure): void {
    if (failure.kind === 'cancelled') {
      this.transition('cancelled', 'cancelled', failure.message, 'cancelled');
    } else {
      const conn: ConnectionStatus =
        failure.kind === 'authentication' ? 'authenticationRequired' : 'failed';
      this.transition('failed', conn, failure.message, failure.kind);
    }
  }

  private onCrash(connection: ServerConnection, reason: string): void {
    if (this.connection !== connection) return;
    this.lastStderr = connection.stderrTail();
    this.lastExit = connection.exitInfo ?? null;
    this.connection = null;
    void connection.close();
    this.scheduleRestart(`MCP server \`${this.label}\` stopped: ${reason}`, 'crashed');
  }

  /**
   * Restart policy (`restart = "on-failure"`): restart with exponential backoff until
   * `restart_max_attempts` consecutive attempts have failed; then stay failed (reload retries).
   */
  private scheduleRestart(message: string, kind: FailureKind): void {
    const sup = this.config?.supervision;
    if (
      this.abort.signal.aborted ||
      !sup ||
      sup.restart === 'never' ||
      this.consecutiveRestarts >= sup.maxRestarts
    ) {
      const gaveUp =
        sup && sup.restart !== 'never' && sup.maxRestarts > 0
          ? ` (gave up after ${this.consecutiveRestarts} restart${this.consecutiveRestarts === 1 ? '' : 's'})`
          : '';
      this.transition('failed', 'failed', `${message}${gaveUp}`, kind);
      return;
    }
    this.consecutiveRestarts += 1;
    this.restartCount += 1;
    const delay = restartDelay(sup.restartBackoffMs, this.consecutiveRestarts);
    this.restarting = true;
    this.transition(
      'starting',
      'starting',
      `${message}; restarting (attempt ${this.consecutiveRestarts} of ${sup.maxRestarts}) in ${delay} ms`,
      kind,
    );
    this.started = this.sleep(delay).then(() => this.run(true));
  }

  /**
   * Re-initialize now (e.g. an HTTP server lost our session): a fresh connection replaces
   * `stale`. Concurrent callers that saw the same stale connection share one reconnect.
   * Resolves with the new connection; throws ServerUnavailableError if it does not come back.
   */
  async reconnect(stale: ServerConnection, reason: string): Promise<ServerConnection> {
    if (this.connection === stale) {
      this.connection = null;
      void stale.close();
      this.restarting = true;
      this.transition(
        'starting',
        'starting',
        `MCP server \`${this.label}\`: ${reason}; re-initializing`,
        'crashed',
      );
      this.started = this.run(true);
    }
    await this.started;
    if (!this.connection || this.startupStatus !== 'ready') {
      throw new ServerUnavailableError(this.label, this.error ?? 'it could not re-initialize');
    }
    return this.connection;
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

  private transition(
    startup: StartupStatus,
    connection: ConnectionStatus,
    error: string | null,
    kind: FailureKind | null,
  ): void {
    this.startupStatus = startup;
    this.connectionStatus = connection;
    this.error = error;
    this.failureKind = kind;
    this.hooks.onStartup(this);
  }
}
