/**
 * One short `ssh` command (a control request or a read through the master): output collected up
 * to a bound, a timeout, and the exit status — never a throw, so callers build messages that
 * name their environment.
 */

import { spawn } from 'node:child_process';

export interface SshRunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: readonly string[];
  /** Why the run did not complete normally (spawn failure, timeout, too much output). */
  readonly error: string | null;
}

export function runSsh(
  processEnv: NodeJS.ProcessEnv,
  args: readonly string[],
  timeoutMs: number,
  maxBytes = 64 * 1024,
): Promise<SshRunResult> {
  return new Promise((resolve) => {
    const child = spawn('ssh', [...args], {
      env: { ...processEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    let size = 0;
    let error: string | null = null;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        error = `output exceeds ${maxBytes} bytes`;
        child.kill('SIGKILL');
      } else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8192);
    });
    const timer = setTimeout(() => {
      error = `no answer within ${Math.round(timeoutMs / 1000)} s`;
      child.kill('SIGKILL');
    }, timeoutMs);
    let settled = false;
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: stderr.split('\n'), error });
    };
    child.once('error', (e) => {
      error = e.message;
      done(null, null);
    });
    child.once('close', done);
  });
}
