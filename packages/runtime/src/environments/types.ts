/**
 * The execution-environment seam: where a stdio server's process runs and how HTTP servers are
 * reached. `local` spawns children of this process; `exec` runs them through a command prefix
 * (`docker exec -i ctr`, `kubectl exec -i pod --`); `ssh` runs them on a remote host over one
 * multiplexed connection. Everything above this folder sees only this interface.
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';

import type { ConfigDiagnostic, InvalidServerConfig, ServerConfig } from '../config/types.js';

/** What to run for one stdio server, already resolved for the environment. */
export interface StdioLaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  /**
   * Local environment: the complete child environment (cleared + allow-list + env_vars + env).
   * Other environments: only the variables forwarded from this side; the base environment is the
   * executor's own.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Absolute working directory, or null to keep the environment's default. */
  readonly cwd: string | null;
}

/** A WHATWG-compatible `fetch` (the MCP SDK's `FetchLike`). */
export type EnvironmentFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * How HTTP servers registered in an environment are reached: directly from this process, through
 * the environment (`tunnel`: every request goes through `fetch`, so the URL is resolved on the
 * environment's side), or not at all.
 */
export type HttpAccess =
  | { readonly kind: 'direct' }
  | { readonly kind: 'tunnel'; readonly fetch: EnvironmentFetch }
  | { readonly kind: 'unsupported'; readonly reason: string };

/** Connection health of an environment that holds a connection (ssh). */
export interface EnvironmentHealth {
  readonly state: 'ready' | 'connecting' | 'disconnected';
  /** Why the last connection attempt failed or the connection was lost (null otherwise). */
  readonly error: string | null;
  /** Epoch ms before which use does not retry (reconnect backoff); null: the next use retries. */
  readonly nextAttemptAt: number | null;
}

/** Registrations an environment contributes from its own config (ssh: the remote host's). */
export interface EnvironmentRegistrations {
  /** Where they were read, as diagnostics name it. */
  readonly file: string;
  readonly servers: readonly ServerConfig[];
  readonly invalidServers: readonly InvalidServerConfig[];
  readonly warnings: readonly ConfigDiagnostic[];
}

/**
 * Implemented by a spawned child whose server runs somewhere its local process group does not
 * reach (ssh: the session's process group on the remote host).
 */
export interface RemoteProcessOwner {
  /**
   * SIGTERM the remote process group, SIGKILL it after `graceMs`, and resolve once it is gone
   * (bounded: grace + about a second): true, or false when that could not be confirmed.
   */
  terminateRemote(graceMs: number): Promise<boolean>;
}

export interface ExecutionEnvironment {
  readonly id: string;
  readonly kind: 'local' | 'exec' | 'ssh';
  /** Default absolute cwd for stdio servers in this environment (config), if any. */
  readonly defaultCwd: string | null;
  /** Why this environment cannot run anything (invalid config, unsupported kind), or null. */
  readonly unavailableReason: string | null;
  /**
   * Start a stdio server process. The child has piped stdin/stdout/stderr and leads its own
   * process group, so shutdown can signal everything it started (a child that also started
   * processes elsewhere implements `RemoteProcessOwner`). Spawn failures (e.g. ENOENT) arrive as
   * the child's `error` event, never as a throw.
   */
  spawn(spec: StdioLaunchSpec): ChildProcessWithoutNullStreams;
  http(): HttpAccess;
  /** Release environment-wide resources (e.g. an ssh control connection). */
  close(): Promise<void>;
  /** Health of a connection-holding environment; absent means always usable. */
  health?(): EnvironmentHealth;
  /** Subscribe to health changes; returns the unsubscribe function. */
  onHealthChange?(listener: (health: EnvironmentHealth) => void): () => void;
  /** Forget reconnect backoff so the next use connects at once (a config reload does this). */
  resetBackoff?(): void;
  /**
   * Read the registrations this environment contributes from its own config. Rejects with an
   * error whose message names the environment when the config cannot be read or parsed.
   */
  readRegistrations?(): Promise<EnvironmentRegistrations>;
}
