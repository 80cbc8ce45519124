// Tasks through `mcprt serve` (docs/gateway.md "Tasks"), against the task fixture in two
// environments (local and exec, the same server name): a 2025-11-25 client (the raw SDK client,
// stdio and HTTP) asks with `params.task` and gets a task of the gateway's, polls it, reads its
// result with `tasks/result`, lists and cancels it; a 2026-07-28 client (raw JSON-RPC over HTTP,
// declaring the extension) gets `resultType: "task"` and the result inline in `tasks/get`. Task
// ids are per scope; the server is told of a cancellation; a client that does not take tasks gets
// the result as for any call.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Runtime } from '@mcprt/runtime';

import { makeHome, shExecEnvironment, tempDir, text, waitFor } from '../helpers/fixtures.js';
import { storedTask, taskFiles, taskServer } from '../helpers/tasks.js';
import type { HttpGateway } from './helpers.js';
import { httpGateway, TOKEN } from './helpers.js';
import type { LegacyRaw } from './taskHelpers.js';
import { legacyHttp, legacyStdio, modernRpc, pollUntilEnded } from './taskHelpers.js';

const dir = tempDir('mcprt-gw-tasks-');
const files = {
  t26: taskFiles(dir, 't26'),
  t25: taskFiles(dir, 't25'),
  alpha: taskFiles(dir, 'alpha'),
};
const home = makeHome(
  taskServer('mcp_servers.t26', files.t26, 'local') +
    taskServer('mcp_servers.t25', files.t25, 'local25', 'protocol_version = "2025-11-25"') +
    shExecEnvironment('alpha', tempDir()) +
    taskServer('environments.alpha.mcp_servers.t26', files.alpha, 'alpha'),
);

let gateway: HttpGateway;
let stdio: LegacyRaw;
beforeAll(async () => {
  gateway = await httpGateway(home);
  stdio = await legacyStdio(home);
});
afterAll(async () => {
  await stdio?.close();
  await gateway?.stop();
});

type Task = Record<string, unknown> & { taskId: string; status: string };

/** A 2025 client's task-augmented call; `get` polls the task. */
async function legacyTask(c: LegacyRaw, name: string, args: Record<string, unknown>) {
  const created = await c.request('tools/call', { name, arguments: args, task: {} });
  const task = created.result!['task'] as Task;
  const get = async () => (await c.request('tasks/get', { taskId: task.taskId })).result as Task;
  return { created: task, get };
}

describe('tasks through the gateway, 2025-11-25 clients', () => {
  it.each(['stdio', 'http'] as const)(
    '%s: a task of the gateway’s, polled to its result',
    async (how) => {
      const c = how === 'stdio' ? stdio : await legacyHttp(gateway.url, TOKEN);
      const tools = (await c.request('tools/list', {})).result!['tools'] as Record<
        string,
        unknown
      >[];
      const slow = tools.find((t) => t['name'] === 't25__slow_job');
      expect(slow?.['execution']).toEqual({ taskSupport: 'required' });
      const { created, get } = await legacyTask(c, 't25__slow_job', {
        seconds: 1,
        label: `g-${how}`,
      });
      expect(created.taskId).toMatch(/^t25\/[0-9a-f-]{36}$/);
      expect(created.status).toBe('working');
      const ended = await pollUntilEnded(get);
      expect(ended['status']).toBe('completed');
      const result = await c.request('tasks/result', { taskId: created.taskId });
      expect(text(result.result)).toBe(`done: g-${how} in local25`);
      expect(result.result!['_meta']).toMatchObject({
        'io.modelcontextprotocol/related-task': { taskId: created.taskId },
      });
      const listed = (await c.request('tasks/list', {})).result!['tasks'] as Task[];
      expect(listed.map((t) => t.taskId)).toContain(created.taskId);
      await c.close();
      if (how === 'stdio') stdio = await legacyStdio(home);
    },
  );

  it('a 2026 server in an exec environment: its task, to a 2025 client, under its scope', async () => {
    const tools = (await stdio.request('tools/list', {})).result!['tools'] as { name: string }[];
    const name = tools
      .map((t) => t.name)
      .find((n) => n.includes('alpha') && n.endsWith('slow_job'));
    const { created, get } = await legacyTask(stdio, name!, { seconds: 1, label: 'across' });
    expect(created.taskId).toMatch(/^t26@alpha\//);
    expect((await pollUntilEnded(get))['status']).toBe('completed');
    const result = await stdio.request('tasks/result', { taskId: created.taskId });
    expect(text(result.result)).toBe('done: across in alpha');
  });

  it('a client that does not ask gets the result as for any call', async () => {
    const answer = await stdio.request('tools/call', {
      name: 't25__maybe_task',
      arguments: { label: 'direct' },
    });
    expect(text(answer.result)).toBe('now: direct');
  });

  it('tasks/cancel cancels the server’s task; an unknown id is refused', async () => {
    const { created } = await legacyTask(stdio, 't25__slow_job', { seconds: 30, label: 'stop' });
    const cancelled = (await stdio.request('tasks/cancel', { taskId: created.taskId }))
      .result as Task;
    expect(cancelled.status).toBe('cancelled');
    const upstreamId = created.taskId.split('/')[1]!;
    await waitFor(() => storedTask(files.t25, upstreamId)?.['status'] === 'cancelled');
    const unknown = await stdio.request('tasks/get', { taskId: upstreamId });
    expect(unknown.error?.message).toBe(`Unknown task: ${upstreamId}`);
  });
});

describe('tasks through the gateway, 2026-07-28 clients', () => {
  const rpc = (method: string, params: Record<string, unknown>, tasks = true) =>
    modernRpc(gateway.url, TOKEN, method, params, tasks);

  it('the same server in two environments: a task per scope, each with its own result', async () => {
    const tools = (await rpc('tools/list', {})).result!['tools'] as { name: string }[];
    const names = tools
      .map((t) => t.name)
      .filter((n) => n.endsWith('slow_job') && n.includes('t26'));
    expect(names).toHaveLength(2);
    const ids: string[] = [];
    for (const name of names) {
      const created = await rpc('tools/call', { name, arguments: { seconds: 1, label: name } });
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      ids.push(created.result!['taskId'] as string);
    }
    expect(ids[0]!.split('/')[0]).not.toBe(ids[1]!.split('/')[0]);
    const marks: string[] = [];
    for (const taskId of ids) {
      const ended = await pollUntilEnded(async () => (await rpc('tasks/get', { taskId })).result!);
      expect(ended).toMatchObject({ status: 'completed', resultType: 'complete' });
      marks.push(text(ended['result']));
    }
    expect(marks.sort()).toEqual(
      names.map((n) => `done: ${n} in ${n.includes('alpha') ? 'alpha' : 'local'}`).sort(),
    );
  });

  it('tasks/cancel reaches the server; a client without the extension gets the result', async () => {
    const created = await rpc('tools/call', {
      name: 't26__slow_job',
      arguments: { seconds: 30, label: 'x' },
    });
    const taskId = created.result!['taskId'] as string;
    expect((await rpc('tasks/cancel', { taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect((await rpc('tasks/get', { taskId })).result!['status']).toBe('cancelled');
    await waitFor(() => storedTask(files.t26, taskId.split('/')[1]!)?.['status'] === 'cancelled');
    const plain = await rpc(
      'tools/call',
      { name: 't26__slow_job', arguments: { seconds: 1, label: 'y' } },
      false,
    );
    expect(text(plain.result)).toBe('done: y in local');
    const unknown = await rpc('tasks/get', { taskId: 't26/nope' });
    expect(unknown.error?.message).toBe('Unknown task: t26/nope');
  });
});

describe('a task through `mcprt serve` outlives the gateway', () => {
  it('SIGKILL of the gateway, then a new one on the home: the task ends in its history record', async () => {
    const own = taskFiles(dir, 'restart');
    const restartHome = makeHome(taskServer('mcp_servers.t26', own, 'first'));
    const first = await httpGateway(restartHome);
    const created = await modernRpc(first.url, TOKEN, 'tools/call', {
      name: 't26__slow_job',
      arguments: { seconds: 3, label: 'outlive' },
    });
    const upstreamId = (created.result!['taskId'] as string).split('/')[1]!;
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const reader = Runtime.load({ home: restartHome, processEnv: process.env });
    const record = () =>
      reader.history!.list({ tasks: true }).data.find((r) => r.task?.id === upstreamId);
    expect(record()?.status).toBe('inProgress');
    const second = await httpGateway(restartHome);
    try {
      // Its servers start with the first request; unfinished tasks are then followed again.
      await modernRpc(second.url, TOKEN, 'tools/list', {});
      await waitFor(() => record()?.status === 'completed', 20_000, 'the resumed task');
      expect(text(record()!.result)).toBe('done: outlive in first');
    } finally {
      await second.stop();
      await reader.close();
    }
  });
});
