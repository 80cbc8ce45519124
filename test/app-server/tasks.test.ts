// Tasks through the app-server: a tool call the server runs as a task completes as any call
// (`item/completed`, the response), and one started before `kill -9` of the app-server is
// found by the next app-server on the home (`mcpServer/task/list`, earlier runs included on the
// owner's stdio connection), followed to its end, and its result lands in the same history record
// and on `item/completed` of the asking thread (`mcpServer/task/result`) — locally and in an exec
// environment, in both eras.

import { describe, expect, it } from 'vitest';

import { makeHome, shExecEnvironment, tempDir, text } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import type { Message } from '../helpers/rpcClient.js';
import { taskFiles, taskServer } from '../helpers/tasks.js';

interface Entry {
  id: string;
  threadId: string;
  status: string;
  server: string;
  environmentId: string | null;
  result: unknown;
  task: { id: string; wire: string } | null;
}

const dir = tempDir('mcprt-app-tasks-');
const files = {
  t26: taskFiles(dir, 't26'),
  t25: taskFiles(dir, 't25'),
  alpha: taskFiles(dir, 'alpha'),
};
const config = () =>
  taskServer('mcp_servers.t26', files.t26, 'local') +
  taskServer('mcp_servers.t25', files.t25, 'local', 'protocol_version = "2025-11-25"') +
  shExecEnvironment('alpha', tempDir()) +
  taskServer('environments.alpha.mcp_servers.t26', files.alpha, 'alpha');

async function startThread(home: string) {
  const server = RawAppServer.start(home);
  await server.initialize();
  const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {});
  return { server, threadId: thread.id };
}

async function taskList(server: RawAppServer, params: Record<string, unknown> = {}) {
  return (await server.call<{ data: Entry[] }>('mcpServer/task/list', params)).data;
}

describe('tasks through the app-server', () => {
  it('a task call completes like any call, and is listed as a task', async () => {
    const home = makeHome(config());
    const { server, threadId } = await startThread(home);
    const reply = await server.request('mcpServer/tool/call', {
      threadId,
      server: 't26',
      tool: 'slow_job',
      arguments: { seconds: 1, label: 'plain' },
    });
    expect(text(reply.result)).toBe('done: plain in local');
    const completed = await server.waitFor((m) => m.method === 'item/completed');
    expect(text((completed.params as { item: { result: unknown } }).item.result)).toBe(
      'done: plain in local',
    );
    const [entry] = await taskList(server, { threadId });
    expect(entry).toMatchObject({
      status: 'completed',
      server: 't26',
      task: { wire: 'extension' },
    });
    // A call that was not a task is not listed; `history/list` shows both with `task`.
    await server.call('mcpServer/tool/call', { threadId, server: 't26', tool: 'quick' });
    expect(await taskList(server, { threadId })).toHaveLength(1);
    const history = await server.call<{ data: Entry[] }>('history/list', { threadId });
    expect(history.data.map((e) => e.task === null)).toEqual([true, false]);
    await server.close();
  });

  it.each([
    ['t26', undefined, 'extension', 'local'],
    ['t25', undefined, 'core', 'local'],
    ['t26', 'alpha', 'extension', 'alpha'],
  ] as const)(
    '%s@%s (%s): a task started before kill -9 completes after the restart, in the same record',
    async (name, environmentId, wire, mark) => {
      const home = makeHome(config());
      const first = await startThread(home);
      void first.server.request('mcpServer/tool/call', {
        threadId: first.threadId,
        server: name,
        tool: 'slow_job',
        arguments: { seconds: 3, label: `survivor-${name}` },
        ...(environmentId ? { environmentId } : {}),
      });
      let started: Entry | undefined;
      while (started === undefined) {
        started = (await taskList(first.server)).find((e) => e.task !== null);
        if (started === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      expect(started).toMatchObject({ status: 'inProgress', task: { wire } });
      first.server.child.kill('SIGKILL');
      await new Promise((r) => first.server.child.once('exit', r));

      const second = await startThread(home);
      // The owner's stdio connection lists the earlier run's task.
      const listed = (await taskList(second.server)).find((e) => e.id === started.id);
      expect(listed?.threadId).toBe(first.threadId);
      const { entry } = await second.server.call<{ entry: Entry }>('mcpServer/task/result', {
        threadId: second.threadId,
        callId: started.id,
      });
      expect(entry).toMatchObject({
        id: started.id,
        status: 'completed',
        server: name,
        environmentId: environmentId ?? null,
        task: started.task,
      });
      expect(text(entry.result)).toBe(`done: survivor-${name} in ${mark}`);
      const completed: Message = await second.server.waitFor(
        (m) =>
          m.method === 'item/completed' && (m.params as { turnId: string }).turnId === started.id,
      );
      expect(completed.params).toMatchObject({
        threadId: second.threadId,
        item: { id: started.id, status: 'completed', server: name, tool: 'slow_job' },
      });
      // One record for the call, finished.
      const history = await second.server.call<{ data: Entry[] }>('history/list', {});
      expect(history.data.filter((e) => e.id === started.id)).toEqual([
        expect.objectContaining({ status: 'completed' }),
      ]);
      await second.server.close();
    },
  );

  it('mcpServer/task/result of a call that is no task, or unknown, is `task not found`', async () => {
    const home = makeHome(config());
    const { server, threadId } = await startThread(home);
    await server.call('mcpServer/tool/call', { threadId, server: 't26', tool: 'quick' });
    const [plain] = (await server.call<{ data: Entry[] }>('history/list', { threadId })).data;
    for (const callId of [plain!.id, 'call_nope']) {
      const reply = await server.request('mcpServer/task/result', { threadId, callId });
      expect(reply.error?.message).toBe(`task not found: ${callId}`);
    }
    const reply = await server.request('mcpServer/task/result', {
      threadId: 'other',
      callId: plain!.id,
    });
    expect(reply.error?.message).toBe('thread not found: other');
    await server.close();
  });
});
