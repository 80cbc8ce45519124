/**
 * The library entry point: a `Runtime` owns the loaded config and the environment registry and
 * opens `Session`s (threads). `reload()` re-reads the config file and applies it to every open
 * session (unchanged registrations keep their processes).
 */

import { loadConfig } from '../config/load.js';
import { resolveConfigFile } from '../config/paths.js';
import type { McprtConfig } from '../config/types.js';
import { EnvironmentRegistry } from '../environments/registry.js';
import type { SessionOptions } from './session.js';
import { Session } from './session.js';

export interface RuntimeLoadOptions {
  /** mcprt home (default `$MCPRT_HOME`, else `~/.mcprt`). */
  readonly home?: string;
  /** Read a Codex home's `config.toml` in place instead. */
  readonly codexHome?: string;
  /** Unknown keys are errors instead of warnings. */
  readonly strict?: boolean;
  readonly processEnv?: NodeJS.ProcessEnv;
}

export class Runtime {
  private configValue: McprtConfig;
  private registry: EnvironmentRegistry;
  private readonly sessions = new Set<Session>();
  private readonly processEnv: NodeJS.ProcessEnv;
  private readonly reloadSource: (() => McprtConfig) | null;

  constructor(
    config: McprtConfig,
    options: { processEnv?: NodeJS.ProcessEnv; reload?: () => McprtConfig } = {},
  ) {
    this.configValue = config;
    this.processEnv = options.processEnv ?? process.env;
    this.registry = new EnvironmentRegistry(config, this.processEnv);
    this.reloadSource = options.reload ?? null;
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
    return new Runtime(read(), { processEnv: env, reload: read });
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
        onClose: (s) => this.sessions.delete(s),
      },
      options,
    );
    this.sessions.add(session);
    return options.lazy ? session : session.start();
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
      this.registry = new EnvironmentRegistry(next, this.processEnv);
    }
    return next;
  }

  /** Re-read the config (or take the one given) and apply it to every open session. */
  async reload(config?: McprtConfig): Promise<McprtConfig> {
    const next = this.refreshConfig(config);
    await Promise.all([...this.sessions].map((s) => s.applyConfig(next, this.registry)));
    return next;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
    await this.registry.close();
  }
}
