/**
 * The library entry point: a `Runtime` owns the loaded config and the environment registry and
 * opens `Session`s (threads). `reload()` re-reads the config file and applies it to every open
 * session (unchanged registrations keep their processes).
 */

import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

import { findServerConfig, environmentFetch, staticHeaders } from '../auth/loginTarget.js';
import { RuntimeAuth } from '../auth/runtimeAuth.js';
import type { CredentialsListener } from '../auth/runtimeAuth.js';
import type { OAuthLoginOptions, PendingOAuthLogin, RuntimeOAuthOptions } from '../auth/types.js';
import { loadConfig } from '../config/load.js';
import { resolveConfigFile } from '../config/paths.js';
import type { McprtConfig } from '../config/types.js';
import { RevisionVerdicts } from '../connection/revisionVerdicts.js';
import { EnvironmentRegistry } from '../environments/registry.js';
import type { ExecutionEnvironment } from '../environments/types.js';
import { SqliteHistoryStore } from '../history/sqliteStore.js';
import { processGroupShutdowns } from '../launch/processGroups.js';
import { defaultProtectedPaths, protectFromSandbox } from '../protectedPaths.js';
import type { SessionOptions } from './sessionTypes.js';
import { Session } from './session.js';

export interface RuntimeLoadOptions {
  /** mcprt home (default `$MCPRT_HOME`, else `~/.mcprt`). */
  readonly home?: string;
  /** Read a Codex home's `config.toml` in place instead. */
  readonly codexHome?: string;
  /** Unknown keys are errors instead of warnings. */
  readonly strict?: boolean;
  readonly processEnv?: NodeJS.ProcessEnv;
  /** OAuth: client credentials the host supplies, CIMD URL, warnings (see docs/auth.md). */
  readonly oauth?: RuntimeOAuthOptions;
}

export const HISTORY_FILE_NAME = 'history.sqlite';

export class Runtime {
  private configValue: McprtConfig;
  private registry: EnvironmentRegistry;
  private readonly sessions = new Set<Session>();
  private readonly processEnv: NodeJS.ProcessEnv;
  private readonly reloadSource: (() => McprtConfig) | null;
  /** Environments replaced by a config change, closed at the next reload or close. */
  private readonly retired: ExecutionEnvironment[] = [];
  private closing: Promise<void> | null = null;
  /** Waiting for the first completed tool call of any session; null once it happened. */
  private firstCallListeners: (() => void)[] | null = [];
  /** The tool-call history store, when history is enabled. */
  readonly history: SqliteHistoryStore | null;
  /** OAuth credentials, login and logout per registration scope (docs/auth.md). */
  readonly auth: RuntimeAuth;
  /** The protocol revision each scope negotiated, for its next start (ADR 0018). */
  readonly revisions = new RevisionVerdicts();

  constructor(
    config: McprtConfig,
    options: {
      processEnv?: NodeJS.ProcessEnv;
      reload?: () => McprtConfig;
      /** History database file; omitted or null: calls are not recorded. */
      historyFile?: string | null;
      /** mcprt home: where `.credentials.json` lives (default `$MCPRT_HOME`, else `~/.mcprt`). */
      home?: string;
      oauth?: RuntimeOAuthOptions;
    } = {},
  ) {
    this.configValue = config;
    this.processEnv = options.processEnv ?? process.env;
    this.registry = new EnvironmentRegistry(config, this.processEnv);
    this.reloadSource = options.reload ?? null;
    const home = options.home ?? this.processEnv['MCPRT_HOME'] ?? join(homedir(), '.mcprt');
    // Token, credentials, history and config, and this user's session bus and keyring: never
    // visible to a sandboxed command (the launcher's own environment is cleared).
    protectFromSandbox(home, dirname(config.file), ...defaultProtectedPaths(this.processEnv));
    this.auth = new RuntimeAuth(config, home, options.oauth, this.processEnv);
    // A login (or logout) reaches running sessions: their registration of that scope reconnects.
    this.auth.onCredentialsChanged((scope) => {
      // Another authorization context: what the server offered before is not reused.
      this.revisions.forgetScope(scope);
      for (const session of this.sessions) void session.restartRegistration(scope);
    });
    this.history =
      options.historyFile && config.history.enabled
        ? new SqliteHistoryStore(options.historyFile, {
            redactKeys: config.history.redactKeys,
            redactKeysReplace: config.history.redactKeysReplace,
            maxResultBytes: config.history.maxResultBytes,
            maxEntries: config.history.maxEntries,
          })
        : null;
  }

  /** Load `config.toml` from the mcprt home (or a Codex home) and build a runtime. */
  static load(options: RuntimeLoadOptions = {}): Runtime {
    const env = options.processEnv ?? process.env;
    const { file, mode } = resolveConfigFile({
      ...(options.home !== undefined ? { home: options.home } : {}),
      ...(options.codexHome !== undefined ? { codexHome: options.codexHome } : {}),
      env,
    });
    const read = () => loadConfig({ file, mode, strict: options.strict ?? false });
    const home =
      mode === 'codex' ? (env['MCPRT_HOME'] ?? join(homedir(), '.mcprt')) : dirname(file);
    return new Runtime(read(), {
      processEnv: env,
      reload: read,
      historyFile: join(home, HISTORY_FILE_NAME),
      home,
      ...(options.oauth ? { oauth: options.oauth } : {}),
    });
  }

  get config(): McprtConfig {
    return this.configValue;
  }

  get environments(): EnvironmentRegistry {
    return this.registry;
  }

  /** Open a session and start its servers in the background (await `session.ready()`). */
  startSession(options: SessionOptions = {}): Session {
    const session = new Session(
      this.configValue,
      this.registry,
      {
        processEnv: this.processEnv,
        history: this.history,
        auth: this.auth,
        revisions: this.revisions,
        onClose: (s) => this.sessions.delete(s),
      },
      options,
    );
    this.sessions.add(session);
    if (this.firstCallListeners !== null) {
      // After the turn that completed it: its events handled, its answer on its way.
      session.once('toolCallCompleted', () => setImmediate(() => this.firstCallCompleted()));
    }
    return options.lazy ? session : session.start();
  }

  /**
   * Run `listener` once, soon after the first tool call of any of this runtime's sessions
   * completes (in a later turn than its events and its result), or at once if that has happened. The CLI's server
   * processes tune V8's tier-up to it (ADR 0026).
   */
  onFirstToolCall(listener: () => void): void {
    if (this.firstCallListeners === null) listener();
    else this.firstCallListeners.push(listener);
  }

  private firstCallCompleted(): void {
    const listeners = this.firstCallListeners;
    if (listeners === null) return;
    this.firstCallListeners = null;
    for (const listener of listeners) listener();
  }

  /**
   * Re-read the config (or take the one given) for sessions started from now on, without
   * touching open sessions. An identical config keeps the current objects (so callers can tell
   * whether anything changed by identity). Throws (e.g. `ConfigParseError`) and keeps the current
   * config when the file cannot be read.
   */
  refreshConfig(config?: McprtConfig): McprtConfig {
    const next = config ?? this.reloadSource?.() ?? this.configValue;
    if (next !== this.configValue && JSON.stringify(next) !== JSON.stringify(this.configValue)) {
      this.configValue = next;
      this.auth.configure(next);
      this.registry = new EnvironmentRegistry(next, this.processEnv, this.registry);
      // Changed environments stay open for the sessions still on them until the next reload.
      this.retired.push(...this.registry.retired);
    }
    return next;
  }

  /**
   * Re-read the config (or take the one given) and apply it to every open session. Environments
   * that hold a connection forget their reconnect backoff (a reload reconnects at once).
   */
  async reload(config?: McprtConfig): Promise<McprtConfig> {
    const next = this.refreshConfig(config);
    for (const id of this.registry.configuredIds) this.registry.get(id)?.resetBackoff?.();
    await Promise.all([...this.sessions].map((s) => s.applyConfig(next, this.registry)));
    await Promise.allSettled(this.retired.splice(0).map((e) => e.close()));
    return next;
  }

  /**
   * Start an OAuth login of one registration: `authorizationUrl` is to be opened in a browser;
   * `completed` settles when the redirect arrived and the tokens are stored (running sessions
   * then reconnect that registration). With `session`, routing follows the session's rules.
   */
  async oauthLogin(options: OAuthLoginOptions & { session?: Session }): Promise<PendingOAuthLogin> {
    const config = this.loginTarget(
      options.server,
      options.environmentId,
      'login',
      options.session,
    );
    return this.auth.login(
      config,
      options,
      environmentFetch(this.registry, config),
      staticHeaders(config, this.processEnv),
    );
  }

  /** Remove the stored OAuth credentials of one registration; true when there were any. */
  oauthLogout(options: { server: string; environmentId?: string | null }): Promise<boolean> {
    return this.auth.logout(this.loginTarget(options.server, options.environmentId, 'logout'));
  }

  /** Called with the scope whenever stored credentials change (login, logout). */
  onCredentialsChanged(listener: CredentialsListener): () => void {
    return this.auth.onCredentialsChanged(listener);
  }

  private loginTarget(
    server: string,
    environmentId: string | null | undefined,
    what: 'login' | 'logout',
    session?: Session,
  ) {
    const scope = session?.resolve(server, environmentId);
    return findServerConfig(
      this.configValue,
      server,
      scope ? scope.environmentId : environmentId,
      (id) => this.registry.has(id),
      what,
    );
  }

  /**
   * Close every session and environment. Resolves only once every server process group is gone
   * (also those of servers stopped in the background, e.g. after a crash): bounded by the grace
   * period plus a second.
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
    await processGroupShutdowns();
    await Promise.allSettled(this.retired.splice(0).map((e) => e.close()));
    await this.registry.close();
    this.history?.close();
  }
}
