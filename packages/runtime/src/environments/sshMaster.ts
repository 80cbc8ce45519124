/**
 * The control master of one ssh environment: a foreground `ssh -M` child of this process whose
 * remote command prints a marker and then waits on stdin. The marker says "authenticated, control
 * socket listening"; the process's exit is the one reliable "connection lost" signal; and if this
 * process dies without cleaning up, the master's stdin closes, its remote command ends and the
 * master goes away with the last multiplexed session (no orphaned connections).
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

import { LineTail } from '@mcprt/base';

import { SshEnvironmentError, sshStderrSummary } from './sshErrors.js';

export const READY_MARKER = 'mcprt-ssh-ready';
/** Remote command of the master: announce readiness, then live as long as our pipe does. */
export const MASTER_REMOTE_COMMAND = `printf '%s\\n' ${READY_MARKER}; exec cat >/dev/null`;

export interface MasterExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** ssh's own explanation (last stderr lines), possibly empty. */
  readonly detail: string;
}

export interface MasterOptions {
  readonly environmentId: string;
  /** `user@host:port` for messages. */
  readonly destination: string;
  readonly args: readonly string[];
  /** The master's control socket (`ControlPath` in `args`), in a directory private to it. */
  readonly controlPath: string;
  readonly processEnv: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

export class SshMaster {
  /** Resolves once the connection is up; rejects with an {@link SshEnvironmentError}. */
  readonly ready: Promise<void>;
  /** Resolves when the master process has exited (never rejects). */
  readonly exited: Promise<MasterExit>;
  private readonly child: ChildProcess;
  private readonly stderr = new LineTail(20, 500);
  private exitInfo: MasterExit | null = null;

  constructor(private readonly options: MasterOptions) {
    const what = `ssh environment \`${options.environmentId}\` (${options.destination})`;
    // A master that was killed (SIGKILL, the OOM killer) could not unlink its control socket, and
    // `ssh -M` finding one there only warns ("already exists, disabling multiplexing") and logs in
    // WITHOUT a control socket: every session would fail against the dead one while the
    // environment looked ready. The directory is private, so a socket there is a previous
    // master's (dead, or being stopped after a failed connect): remove it first.
    rmSync(options.controlPath, { force: true });
    this.child = spawn('ssh', [...options.args], {
      env: { ...options.processEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    const child = this.child;
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.stdin?.on('error', () => undefined);

    let spawnError: NodeJS.ErrnoException | null = null;
    this.exited = new Promise((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        spawnError = error;
        resolve(this.recordExit(null, null));
      });
      child.once('close', (code, signal) => resolve(this.recordExit(code, signal)));
    });

    this.ready = new Promise<void>((resolve, reject) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen = (seen + chunk.toString('utf8')).slice(-4096);
        if (seen.split('\n').some((line) => line.trim() === READY_MARKER)) {
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      const timer = setTimeout(() => {
        reject(
          new SshEnvironmentError(
            'connect_timeout',
            options.environmentId,
            `${what} did not connect within ${Math.round(options.timeoutMs / 1000)} s`,
          ),
        );
        void this.stop();
      }, options.timeoutMs);
      timer.unref();
      void this.exited.then((exit) => {
        clearTimeout(timer);
        const error = spawnError as NodeJS.ErrnoException | null;
        if (error?.code === 'ENOENT') {
          reject(
            new SshEnvironmentError(
              'ssh_not_found',
              options.environmentId,
              `${what}: the OpenSSH client \`ssh\` was not found on PATH`,
              { cause: error },
            ),
          );
        } else {
          const why = error?.message ?? (exit.detail || describeExit(exit));
          reject(
            new SshEnvironmentError(
              'connect_failed',
              options.environmentId,
              `${what} could not connect: ${why}`,
              { cause: error ?? undefined },
            ),
          );
        }
      });
    });
    // Callers that never await `ready` (e.g. after close) must not see an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  get alive(): boolean {
    return this.exitInfo === null;
  }

  /** How the master ended, once it has. */
  get exit(): MasterExit | null {
    return this.exitInfo;
  }

  /** Terminate the master (every multiplexed session ends with it). */
  async stop(): Promise<void> {
    if (this.exitInfo !== null) return;
    this.child.stdin?.end();
    signal(this.child, 'SIGTERM');
    const timer = setTimeout(() => signal(this.child, 'SIGKILL'), 2000);
    timer.unref();
    await this.exited;
    clearTimeout(timer);
  }

  private recordExit(code: number | null, sig: NodeJS.Signals | null): MasterExit {
    this.exitInfo ??= { code, signal: sig, detail: sshStderrSummary(this.stderr.snapshot()) };
    return this.exitInfo;
  }
}

export function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal !== null
    ? `ssh was killed by ${exit.signal}`
    : `ssh exited with code ${exit.code ?? 'unknown'}`;
}

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}
