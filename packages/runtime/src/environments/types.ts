/**
 * The execution-environment seam: where a stdio server's process runs and how HTTP servers are
 * reached. `local` spawns children of this process; `exec` runs them through a command prefix
 * (`docker exec -i ctr`, `kubectl exec -i pod --`); `ssh` (later) runs them on a remote host.
 * Everything above this folder sees only this interface.
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';

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

/** How HTTP servers registered in an environment are reached. */
export type HttpAccess =
  { readonly kind: 'direct' } | { readonly kind: 'unsupported'; readonly reason: string };

export interface ExecutionEnvironment {
  readonly id: string;
  readonly kind: 'local' | 'exec' | 'ssh';
  /** Default absolute cwd for stdio servers in this environment (config), if any. */
  readonly defaultCwd: string | null;
  /** Why this environment cannot run anything (invalid config, unsupported kind), or null. */
  readonly unavailableReason: string | null;
  /**
   * Start a stdio server process. The child has piped stdin/stdout/stderr and leads its own
   * process group, so shutdown can signal everything it started. Spawn failures (e.g. ENOENT)
   * arrive as the child's `error` event, never as a throw.
   */
  spawn(spec: StdioLaunchSpec): ChildProcessWithoutNullStreams;
  http(): HttpAccess;
  /** Release environment-wide resources (e.g. an ssh control connection). */
  close(): Promise<void>;
}
