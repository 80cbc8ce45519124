/**
 * `type = "exec"` environments: stdio servers run through a command prefix such as
 * `docker exec -i ctr` or `kubectl exec -i pod --`. The prefix receives a portable POSIX tail:
 * `sh -c 'cd "$1" && shift && exec "$@"' mcprt-cd <cwd> env K=V… <command> <args…>` (the `cd` part
 * only when a cwd is set, `env` only when variables are forwarded), so the server's cwd and
 * environment are applied on the executor side. The prefix process itself inherits this
 * process's environment (it is the user's own tool: docker, kubectl, sh).
 */

import { spawn } from 'node:child_process';

import type { ExecEnvironmentConfig } from '../config/types.js';
import type { ExecutionEnvironment, HttpAccess, StdioLaunchSpec } from './types.js';

const CD_SCRIPT = 'cd -- "$1" || exit 127; shift; exec "$@"';

/** The argv appended to the prefix for one server (exported for tests and docs). */
export function execTail(spec: StdioLaunchSpec): string[] {
  const tail: string[] = [];
  if (spec.cwd !== null) tail.push('sh', '-c', CD_SCRIPT, 'mcprt-cd', spec.cwd);
  const pairs = Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
  if (pairs.length > 0) tail.push('env', ...pairs);
  tail.push(spec.command, ...spec.args);
  return tail;
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
    return spawn(this.config.program, [...this.config.args, ...execTail(spec)], {
      env: { ...this.processEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
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
