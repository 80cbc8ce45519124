// Durable tasks through the library: a host process (`mcprt call`) that is SIGKILLed while the
// server runs its task leaves the call's history record unfinished with the task's id; a later
// runtime on the same home resumes it (`session.tasks.resumeAll`) and its result lands in that
// same record — in both eras, locally and in an exec environment. A task the server no longer
// knows ends as failed with the server's answer. `mcprt history` shows the task.

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Runtime, TaskRef, ToolCallRecord } from '@mcprt/runtime';
import { Runtime as RuntimeClass } from '@mcprt/runtime';

import { mcprt } from '../helpers/cliRun.js';
import {
  makeHome,
  NODE,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { taskFiles, taskServer } from '../helpers/tasks.js';

const CLI = join(REPO_ROOT, 'packages/cli/dist/main.js');
const dir = tempDir('mcprt-task-resume-');
const files = {
  t26: taskFiles(dir, 't26'),
  t25: taskFiles(dir, 't25'),
  alpha: taskFiles(dir, 'alpha'),
};
const home = makeHome(
  taskServer('mcp_servers.t26', files.t26, 'first') +
    taskServer('mcp_servers.t25', files.t25, 'first', 'protocol_version = "2025-11-25"') +
    shExecEnvironment('alpha', tempDir()) +
    taskServer('environments.alpha.mcp_servers.t26', files.alpha, 'first-alpha'),
);

const open: Runtime[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

function load(): Runtime {
  const runtime = RuntimeClass.load({ home, processEnv: process.env });
  open.push(runtime);
  return runtime;
}

const taskRecords = (runtime: Runtime): ToolCallRecord[] =>
  runtime.history!.list({ tasks: true, limit: 500 }).data;

/** `mcprt call` of a task tool, SIGKILLed once the history holds the task's id. */
async function startAndKill(server: string, label: string, env?: string): Promise<ToolCallRecord> {
  const args = [
    '--home',
    home,
    'call',
    server,
    'slow_job',
    '--args',
    JSON.stringify({ seconds: 3, label }),
  ];
  if (env) args.push('--environment', env);
  const child = spawn(NODE, [CLI, ...args], { stdio: 'ignore' });
  const watcher = load();
  const record = await waitFor(
    () => taskRecords(watcher).find((r) => (r.arguments as { label?: string })?.label === label),
    20_000,
    `the task of ${label} in the history`,
  );
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  expect(record.status).toBe('inProgress');
  return record;
}

describe('a task that outlives its host', () => {
  it.each([
    ['t26', undefined, 'extension', 'local'],
    ['t25', undefined, 'core', 'local'],
    ['t26', 'alpha', 'extension', 'alpha'],
  ] as const)(
    '%s@%s (%s wire): resumed by the next runtime into the same record',
    async (server, env, wire, where) => {
      const label = `resume-${server}-${where}`;
      const killed = await startAndKill(server, label, env);
      expect(killed.task).toMatchObject({ wire });
      const runtime = load();
      const session = runtime.startSession({});
      await session.ready();
      const resumed = session.tasks.resumeAll();
      expect(resumed.length).toBeGreaterThan(0);
      const finished = await session.tasks.resume(killed.id);
      expect(finished.id).toBe(killed.id);
      expect(finished.status).toBe('completed');
      // Reported by the restarted server process (its mark), the task made by the first one.
      expect(text(finished.result)).toBe(`done: ${label} in first${env ? '-alpha' : ''}`);
      expect(finished.durationMs).toBeGreaterThanOrEqual(0);
      // One record for the call, not two.
      const all = runtime.history!.list({ limit: 500 }).data.filter((r) => r.id === killed.id);
      expect(all).toHaveLength(1);
      // `mcprt history` says the call ran as a task.
      const shown = await mcprt(home, 'history', '--json');
      const listed = (JSON.parse(shown.stdout) as { data: ToolCallRecord[] }).data.find(
        (r) => r.id === killed.id,
      );
      expect(listed?.task).toEqual({ id: killed.task!.id, wire });
      const lines = (await mcprt(home, 'history')).stdout.split('\n');
      const line = lines.find((l) => l.includes(`[task ${killed.task!.id}]`));
      expect(line).toMatch(
        new RegExp(`^\\S+  completed  +${server}${env ? `@${env}` : ''}\\.slow_job\\(`),
      );
    },
  );

  it('a runtime closed under a running task leaves it unfinished for the next one', async () => {
    const first = load();
    const session = first.startSession({});
    await session.ready();
    const refs: TaskRef[] = [];
    const pending = session
      .callTool({
        server: 't26',
        tool: 'slow_job',
        arguments: { seconds: 2, label: 'graceful' },
        task: { onCreated: (ref) => refs.push(ref) },
      })
      .catch((e: unknown) => e);
    await waitFor(() => refs.length === 1);
    await first.close();
    expect(await pending).toBeInstanceOf(Error);
    const next = load();
    const record = taskRecords(next).find((r) => r.task?.id === refs[0]!.taskId)!;
    expect(record.status).toBe('inProgress');
    const nextSession = next.startSession({});
    await nextSession.ready();
    const finished = await nextSession.tasks.resume(record.id);
    expect(finished.status).toBe('completed');
    expect(text(finished.result)).toBe('done: graceful in first');
  });

  it('a task the server forgot ends as failed with the server’s answer', async () => {
    const killed = await startAndKill('t26', 'forgotten');
    rmSync(files.t26.stateDir, { recursive: true, force: true });
    const runtime = load();
    const session = runtime.startSession({});
    await session.ready();
    const finished = await session.tasks.resume(killed.id);
    expect(finished.status).toBe('failed');
    expect(finished.error).toBe(
      `task ${killed.task!.id} of \`slow_job\`: Unknown task: ${killed.task!.id}`,
    );
  });

  it('resume of a call that was not a task is refused, naming it', async () => {
    const runtime = load();
    const session = runtime.startSession({});
    await expect(session.tasks.resume('no-such-call')).rejects.toThrow(
      'no tool call no-such-call ran as a task',
    );
  });
});
