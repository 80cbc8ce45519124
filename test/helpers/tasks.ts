/**
 * The task fixture servers (test/fixtures/servers/task-server*.mjs) as config tables, their state
 * and request logs, and their HTTP form started as a child process.
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { arr, FIXTURES, NODE, q } from './fixtures.js';

export const TASK_SERVER = join(FIXTURES, 'task-server.mjs');
export const TASK_SERVER_HTTP = join(FIXTURES, 'task-server-http.mjs');

/** Where one fixture keeps its tasks and logs what it received. */
export interface TaskServerFiles {
  readonly stateDir: string;
  readonly log: string;
}

export function taskFiles(dir: string, name: string): TaskServerFiles {
  return { stateDir: join(dir, `${name}-state`), log: join(dir, `${name}.log`) };
}

/** `[table]` for the stdio task fixture; `mark` names the process in results. */
export function taskServer(
  table: string,
  files: TaskServerFiles,
  mark: string,
  extra = '',
): string {
  const env = `env = { TASK_STATE_DIR = ${q(files.stateDir)}, TASK_SERVER_MARK = ${q(mark)}, TASK_SERVER_LOG = ${q(files.log)} }`;
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([TASK_SERVER])}\nstartup_timeout_sec = 20\n${env}\n${extra}\n`;
}

/** The requests a fixture received (`{method, taskId?, era}` per line). */
export function taskLog(
  files: TaskServerFiles,
): { method: string; taskId?: string; era: string }[] {
  if (!existsSync(files.log)) return [];
  return readFileSync(files.log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { method: string; taskId?: string; era: string });
}

/** The fixture's stored task `taskId` (status, cancelled, …), or undefined. */
export function storedTask(
  files: TaskServerFiles,
  taskId: string,
): Record<string, unknown> | undefined {
  const file = join(files.stateDir, 'tasks.json');
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as {
    tasks: Record<string, Record<string, unknown>>;
  };
  return state.tasks[taskId];
}

/** The HTTP task fixture on an ephemeral port; resolves once it listens. */
export async function startTaskHttpServer(
  files: TaskServerFiles,
  mark: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(NODE, [TASK_SERVER_HTTP, '--port', '0'], {
    env: {
      ...process.env,
      TASK_STATE_DIR: files.stateDir,
      TASK_SERVER_MARK: mark,
      TASK_SERVER_LOG: files.log,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`task-server-http exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}
