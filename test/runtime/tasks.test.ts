// Tool calls that run as MCP tasks, through the library against the task fixture (stdio and
// HTTP, both eras: 2025-11-25 core tasks, 2026-07-28 extension) locally and in an exec
// environment: the result after polling, status messages as progress, input requests reaching
// the host with the registration's identity, a failed task, cancellation and the task timeout
// (the server is told `tasks/cancel`), a 2025 optional task only when asked, and the history
// record holding the task's id.

import type { ChildProcess } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ElicitationRequest, ProgressUpdate, Runtime, Session, TaskRef } from '@mcprt/runtime';
import { RequestFailedError, Runtime as RuntimeClass, withCallOrigin } from '@mcprt/runtime';

import { makeHome, q, shExecEnvironment, tempDir, text, waitFor } from '../helpers/fixtures.js';
import type { TaskServerFiles } from '../helpers/tasks.js';
import {
  startTaskHttpServer,
  storedTask,
  taskFiles,
  taskLog,
  taskServer,
} from '../helpers/tasks.js';

const dir = tempDir('mcprt-tasks-');
const files = {
  t26: taskFiles(dir, 't26'),
  t25: taskFiles(dir, 't25'),
  alpha: taskFiles(dir, 'alpha'),
  quickTimeout: taskFiles(dir, 'short'),
  http: taskFiles(dir, 'http'),
};
const PINNED = 'protocol_version = "2025-11-25"';

let runtime: Runtime;
let session: Session;
let http: ChildProcess;
const asked: ElicitationRequest[] = [];

beforeAll(async () => {
  const served = await startTaskHttpServer(files.http, 'http');
  http = served.child;
  runtime = RuntimeClass.load({
    home: makeHome(
      taskServer('mcp_servers.t26', files.t26, 'local') +
        taskServer('mcp_servers.t25', files.t25, 'local25', PINNED) +
        taskServer('mcp_servers.short', files.quickTimeout, 'short', 'task_timeout_sec = 1') +
        shExecEnvironment('alpha', tempDir()) +
        taskServer('environments.alpha.mcp_servers.t26', files.alpha, 'alpha') +
        `[mcp_servers.h26]\nurl = ${q(served.url)}\n` +
        `[mcp_servers.h25]\nurl = ${q(served.url)}\n${PINNED}\n`,
    ),
    processEnv: process.env,
  });
  session = runtime.startSession({
    onElicitation: async (request) => {
      asked.push(request);
      return { action: 'accept', content: { name: `Ada@${request.environmentId ?? 'local'}` } };
    },
  });
  const summary = await session.ready();
  expect(summary.failed).toEqual([]);
});

afterAll(async () => {
  await runtime?.close();
  http?.kill();
});

/** One call of `tool` with progress and the task reference collected. */
async function call(server: string, tool: string, args: Record<string, unknown>, extra = {}) {
  const progress: ProgressUpdate[] = [];
  const refs: TaskRef[] = [];
  const result = await session.callTool({
    server,
    tool,
    arguments: args,
    onProgress: (p) => progress.push(p),
    task: { onCreated: (ref) => refs.push(ref) },
    ...extra,
  });
  return { result, progress, refs };
}

const record = (taskId: string) =>
  runtime.history!.list({ tasks: true, limit: 500 }).data.find((r) => r.task?.id === taskId);

describe('a tool call that runs as a task', () => {
  it.each([
    ['t26', 'extension', 'local', undefined],
    ['t25', 'core', 'local25', undefined],
    ['t26', 'extension', 'alpha', 'alpha'],
    ['h26', 'extension', 'http', undefined],
    ['h25', 'core', 'http', undefined],
  ] as const)('%s (%s wire, %s) is polled to its result', async (server, wire, mark, env) => {
    const { result, progress, refs } = await call(
      server,
      'slow_job',
      { seconds: 1, label: `L-${server}` },
      env ? { environmentId: env } : {},
    );
    expect(text(result)).toBe(`done: L-${server} in ${mark}`);
    expect(refs).toHaveLength(1);
    expect(refs[0]!.wire).toBe(wire);
    // Status messages reached the host as progress (`working: N%`), each once.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => /^working: \d+%$/.test(p.message ?? ''))).toBe(true);
    expect(new Set(progress.map((p) => p.message)).size).toBe(progress.length);
    const stored = await waitFor(
      () => record(refs[0]!.taskId)?.status === 'completed' && record(refs[0]!.taskId),
    );
    expect(stored).toMatchObject({
      server,
      environmentId: env ?? null,
      tool: 'slow_job',
      task: { id: refs[0]!.taskId, wire },
    });
    expect(text(stored.result)).toBe(`done: L-${server} in ${mark}`);
  });

  it.each([
    ['t26', undefined],
    ['t25', undefined],
    ['t26', 'alpha'],
  ] as const)(
    '%s@%s: the task’s question reaches the host with the registration',
    async (server, env) => {
      asked.length = 0;
      const { result } = await call(
        server,
        'ask_job',
        { seconds: 0 },
        env ? { environmentId: env } : {},
      );
      expect(text(result)).toBe(`answered: Ada@${env ?? 'local'}`);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({
        serverName: server,
        environmentId: env ?? null,
        message: 'What is your name?',
      });
    },
  );

  it.each(['t26', 't25'])(
    '%s: the task’s question carries the origin the host gave the call',
    async (server) => {
      asked.length = 0;
      const origin = { call: server };
      const { result } = await withCallOrigin(origin, () =>
        call(server, 'ask_job', { seconds: 0 }),
      );
      expect(text(result)).toBe('answered: Ada@local');
      expect(asked).toHaveLength(1);
      expect(asked[0]!.origin).toBe(origin);
    },
  );

  it.each(['t26', 't25'])(
    '%s: a failed task fails the call with the server’s error',
    async (server) => {
      const error = await call(server, 'fail_job', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestFailedError);
      expect((error as Error).message).toBe(
        `tools/call to MCP server \`${server}\` failed: job exploded`,
      );
      expect((error as RequestFailedError).serverError).toMatchObject({ code: -32603 });
    },
  );

  it.each(['t26', 't25'])(
    '%s: cancelling the call cancels the task on the server',
    async (server) => {
      const controller = new AbortController();
      const refs: TaskRef[] = [];
      const pending = session
        .callTool({
          server,
          tool: 'slow_job',
          arguments: { seconds: 30, label: 'never' },
          signal: controller.signal,
          task: { onCreated: (ref) => refs.push(ref) },
        })
        .catch((e: unknown) => e);
      await waitFor(() => refs.length === 1);
      controller.abort(new Error('the user stopped it'));
      const error = await pending;
      expect((error as Error).message).toContain('the user stopped it');
      const file = server === 't26' ? files.t26 : files.t25;
      const taskId = refs[0]!.taskId;
      await waitFor(() => storedTask(file, taskId)?.['status'] === 'cancelled');
      expect(
        taskLog(file).some((line) => line.method === 'tasks/cancel' && line.taskId === taskId),
      ).toBe(true);
      await waitFor(() => record(taskId)?.status === 'cancelled');
    },
  );

  it('task_timeout_sec bounds the whole task; the server is told to cancel it', async () => {
    const refs: TaskRef[] = [];
    const error = await session
      .callTool({
        server: 'short',
        tool: 'slow_job',
        arguments: { seconds: 30, label: 'long' },
        task: { onCreated: (ref) => refs.push(ref) },
      })
      .catch((e: unknown) => e);
    const taskId = refs[0]!.taskId;
    expect((error as Error).message).toBe(
      `tools/call to MCP server \`short\` failed: task ${taskId} did not finish within task_timeout_sec (1 s); mcprt asked the server to cancel it`,
    );
    await waitFor(() => storedTask(files.quickTimeout, taskId)?.['status'] === 'cancelled');
  });

  it('2025: a tool that allows a task runs as one only when the caller asks', async () => {
    const plain = await call('t25', 'maybe_task', { label: 'x' });
    expect(text(plain.result)).toBe('now: x');
    expect(plain.refs).toEqual([]);
    const asTask = await call('t25', 'maybe_task', { label: 'y' }, { task: { wanted: true } });
    expect(text(asTask.result)).toBe('done: y in local25');
    const sent = taskLog(files.t25).filter((line) => line.method === 'tasks/get');
    expect(sent.length).toBeGreaterThan(0);
  });

  it.each(['t26', 't25'])(
    '%s: the task’s result is checked against the tool’s outputSchema',
    async (server) => {
      const error = await call(server, 'slow_job', { seconds: 0.2, label: 42 }).catch(
        (e: unknown) => e,
      );
      expect((error as Error).message).toMatch(
        new RegExp(
          `^tools/call to MCP server \`${server}\` failed: Structured content does not match the tool's output schema`,
        ),
      );
    },
  );

  it('a plain tool of a task server is a plain call', async () => {
    for (const server of ['t26', 't25', 'h26']) {
      const { result, refs } = await call(server, 'quick', {});
      expect(text(result)).toBe('quick');
      expect(refs).toEqual([]);
    }
  });
});

export type { TaskServerFiles };
