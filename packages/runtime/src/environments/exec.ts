/**
 * `type = "exec"` environments: stdio servers run through a command prefix such as
 * `docker exec -i ctr` or `kubectl exec -i pod --`. With neither a cwd nor forwarded variables,
 * the prefix receives `<command> <args…>` as is; otherwise it receives
 * `sh -c '<cd; read the variables from stdin; exec>'` and the variables' values arrive as the
 * first line of the server's stdin (posixLaunch.ts, as for ssh) — never in argv, where any local
 * user reads them (`ps`) for as long as the prefix process lives. So the server's cwd and
 * environment are applied on the executor side. The prefix process itself inherits this
 * process's environment (it is the user's own tool: docker, kubectl, sh).
 */

import { spawn } from 'node:child_process';

import type { ExecEnvironmentConfig } from '../config/types.js';
import { remoteLaunch } from './posixLaunch.js';
import type { ExecutionEnvironment, HttpAccess, StdioLaunchSpec } from './types.js';

/** What is appended to the prefix for one server, and what its stdin starts with. */
export interface ExecTail {
  readonly argv: readonly string[];
  /** Written to the server's stdin first (forwarded values); null when nothing is forwarded. */
  readonly stdinPreamble: string | null;
}

/** The tail of one server's command line (exported for tests and docs). */
export function execTail(spec: StdioLaunchSpec): ExecTail {
  if (spec.cwd === null && Object.keys(spec.env).length === 0) {
    return { argv: [spec.command, ...spec.args], stdinPreamble: null };
  }
  const launch = remoteLaunch(spec);
  return { argv: ['sh', '-c', launch.command], stdinPreamble: launch.stdinPreamble };
}

export class ExecEnvironment implements ExecutionEnvironment {
  readonly kind = 'exec' as const;
  readonly id: string;
  readonly defaultCwd: string | null;
  readonly unavailableReason = null;

  constructor(
    private readonly config: ExecEnvironmentConfig,
    private readonly processEnv: NodeJS.ProcessEnv = process.env,
  ) {
    this.id = config.id;
    this.defaultCwd = config.cwd;
  }

  spawn(spec: StdioLaunchSpec) {
    const tail = execTail(spec);
    const child = spawn(this.config.program, [...this.config.args, ...tail.argv], {
      env: { ...this.processEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    // Before anything the transport writes: the shell reads it, then execs the server.
    if (tail.stdinPreamble !== null) child.stdin.write(tail.stdinPreamble);
    return child;
  }

  http(): HttpAccess {
    return this.config.http === 'direct'
      ? { kind: 'direct' }
      : {
          kind: 'unsupported',
          reason: `HTTP MCP servers are not supported in exec environment \`${this.id}\` (set \`http = "direct"\` on the environment to reach them from this machine)`,
        };
  }

  async close(): Promise<void> {}
}
