/**
 * Helpers of the ssh tests: run one process through an execution environment and collect what
 * it printed, how it ended, or why it could not start.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type {
  ExecutionEnvironment,
  StdioLaunchSpec,
} from '../../packages/runtime/src/environments/types.js';

export const PRINT_ARGV_ENV = join(
  dirname(fileURLToPath(import.meta.url)),
  'fixtures/print-argv-env.mjs',
);

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** The `error` event's message when the process could not be started. */
  readonly spawnError: string | null;
}

export function runThrough(env: ExecutionEnvironment, spec: StdioLaunchSpec): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = env.spawn(spec);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let spawnError: string | null = null;
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('spawn', () => child.stdin.end());
    child.once('error', (e) => (spawnError = e.message));
    child.once('close', (code: number | null) =>
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code,
        spawnError,
      }),
    );
  });
}
