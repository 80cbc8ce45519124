// A server's questions during a task `mcprt serve` holds for a client (docs/gateway.md "Tasks"):
// they reach the client that owns the task, in its era — a 2025-11-25 client inside its
// `tasks/result` (a real `elicitation/create` naming the gateway's task; raw JSON lines over
// stdio, and the SDK's own client over HTTP, on that request's stream), a 2026-07-28 client
// through `tasks/get`'s `inputRequests` and `tasks/update` — and its answer reaches the server
// (the task fixture's `ask_job` reports it). Behind the gateway: a 2025 server (its question
// names its task, `related-task`) and a 2026 server (its question comes back through the
// runtime's poll). A client that cannot answer forms gets the question declined.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { makeHome, NODE, tempDir, text } from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { CLI, RawAppServer } from '../helpers/rpcClient.js';
import { storedTask, taskFiles, taskServer } from '../helpers/tasks.js';
import type { HttpGateway } from './helpers.js';
import { httpGateway, TOKEN } from './helpers.js';
import { modernRpc, pastWorking, pollUntilEnded } from './taskHelpers.js';

const dir = tempDir('mcprt-gw-task-input-');
const files = { t26: taskFiles(dir, 't26'), t25: taskFiles(dir, 't25') };
const home = makeHome(
  taskServer('mcp_servers.t26', files.t26, 'local') +
    taskServer('mcp_servers.t25', files.t25, 'local25', 'protocol_version = "2025-11-25"'),
);
const RELATED = 'io.modelcontextprotocol/related-task';

let stdio: RawAppServer;
let gateway: HttpGateway;
beforeAll(async () => {
  gateway = await httpGateway(home);
  stdio = RawAppServer.spawn(NODE, [CLI, '--home', home, 'serve'], process.env);
  const init = await stdio.request(
    'initialize',
    {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'task-input-test', version: '1.0.0' },
    },
    { jsonrpc: '2.0' },
  );
  expect(init.result).toBeDefined();
  stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
});
afterAll(async () => {
  await stdio?.close();
  await gateway?.stop();
});

/** A 2025 request on the stdio gateway; its result (an error fails the test). */
async function legacy(method: string, params: Record<string, unknown>) {
  const reply = await stdio.request(method, params, { jsonrpc: '2.0' });
  expect(reply.error).toBeUndefined();
  return reply.result as Record<string, unknown>;
}

/** A 2025 client's `ask_job` task of `server` (`params.task`); its gateway task id. */
async function askJob(server: string): Promise<string> {
  const created = await legacy('tools/call', {
    name: `${server}__ask_job`,
    arguments: { seconds: 0 },
    task: {},
  });
  return (created['task'] as { taskId: string }).taskId;
}

let resultIds = 0;
/** Send `tasks/result` for `taskId`: its id, its answer (later), and the question it brings. */
async function resultAsking(taskId: string) {
  const seen = stdio.messages.length;
  const id = `result-${++resultIds}`;
  const pending = stdio.waitFor((m) => m.id === id && ('result' in m || 'error' in m));
  stdio.send({ jsonrpc: '2.0', id, method: 'tasks/result', params: { taskId } });
  const ask: Message = await stdio.waitFor(
    (m) => stdio.messages.indexOf(m) >= seen && m.method === 'elicitation/create',
  );
  return { id, pending, ask };
}

describe('a 2025-11-25 client answers inside tasks/result', () => {
  it.each([
    ['t25', '2025 server: its question names its task'],
    ['t26', '2026 server: its question comes back through the poll'],
  ])('%s (%s)', async (server) => {
    const taskId = await askJob(server);
    expect(taskId.startsWith(`${server}/`)).toBe(true);
    // The question waits for this client: the task says so.
    const waiting = await pastWorking(() => legacy('tasks/get', { taskId }));
    expect(waiting['status']).toBe('input_required');

    const { pending: result, ask } = await resultAsking(taskId);
    const params = ask.params as Record<string, unknown>;
    expect(params['message']).toBe(`[${server}] What is your name?`);
    expect(params['requestedSchema']).toMatchObject({ required: ['name'] });
    expect((params['_meta'] as Record<string, unknown>)[RELATED]).toEqual({ taskId });
    stdio.send({
      jsonrpc: '2.0',
      id: ask.id,
      result: { action: 'accept', content: { name: `Ada-${server}` } },
    });
    const answered = await result;
    expect(answered.error).toBeUndefined();
    expect(text(answered.result)).toBe(`answered: Ada-${server}`);
    expect((await legacy('tasks/get', { taskId }))['status']).toBe('completed');
  });

  it('an answer that does not match the schema: the server is told so, never given it', async () => {
    const taskId = await askJob('t25');
    await pastWorking(() => legacy('tasks/get', { taskId }));
    const { pending: result, ask } = await resultAsking(taskId);
    stdio.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 42 } } });
    // The fixture reads the error it got instead of an answer as no answer.
    expect(text((await result).result)).toBe('declined');
    const stored = storedTask(files.t25, taskId.split('/')[1]!);
    expect(stored?.['answer']).toEqual({ action: 'cancel' });
  });
});

describe('the SDK’s 2025-11-25 client over HTTP', () => {
  it('its own elicitation handler answers inside tasks/result (on that request’s stream)', async () => {
    const client = new Client(
      { name: 'task-input-sdk', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: Record<string, unknown>[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as Record<string, unknown>);
      return { action: 'accept', content: { name: 'Hopper' } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      // The SDK 2.4 client has no task API: the task requests go through `request` as is.
      const loose = z.looseObject({});
      const request = (method: string, params: Record<string, unknown>) =>
        client.request({ method, params } as never, loose as never) as Promise<
          Record<string, unknown>
        >;
      const created = await request('tools/call', {
        name: 't25__ask_job',
        arguments: { seconds: 0 },
        task: {},
      });
      const taskId = (created['task'] as { taskId: string }).taskId;
      await pastWorking(() => request('tasks/get', { taskId }));
      const result = await request('tasks/result', { taskId });
      expect(text(result)).toBe('answered: Hopper');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({
        message: '[t25] What is your name?',
        _meta: { [RELATED]: { taskId } },
      });
    } finally {
      await client.close();
    }
  });
});

describe('a 2025-11-25 client that goes away from tasks/result', () => {
  it('is asked again by its next tasks/result; tasks/cancel answers what waits `cancel`', async () => {
    const taskId = await askJob('t25');
    expect((await pastWorking(() => legacy('tasks/get', { taskId })))['status']).toBe(
      'input_required',
    );
    const first = await resultAsking(taskId);
    // The client cancels its tasks/result: the question is withdrawn, not lost.
    stdio.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: first.id, reason: 'client went away' },
    });
    await stdio.waitFor(
      (m) =>
        m.method === 'notifications/cancelled' &&
        (m.params as { requestId?: unknown }).requestId === first.ask.id,
    );
    const second = await resultAsking(taskId);
    expect(second.ask.id).not.toBe(first.ask.id);
    expect(second.ask.params).toEqual(first.ask.params);
    // Still waiting; now the client cancels the task itself.
    expect((await legacy('tasks/cancel', { taskId }))['status']).toBe('cancelled');
    const ended = await second.pending;
    expect(ended.error?.message).toContain('cancelled');
    expect((await legacy('tasks/get', { taskId }))['status']).toBe('cancelled');
  });
});

describe('a 2026-07-28 client answers through tasks/update', () => {
  const rpc = (method: string, params: Record<string, unknown>) =>
    modernRpc(gateway.url, TOKEN, method, params, true, { elicitation: { form: {} } });

  it('tasks/get shows the question, tasks/update answers it, the result carries the answer', async () => {
    const created = await rpc('tools/call', { name: 't26__ask_job', arguments: { seconds: 0 } });
    const taskId = created.result!['taskId'] as string;
    const get = async () => (await rpc('tasks/get', { taskId })).result!;
    const waiting = await pastWorking(get);
    expect(waiting['status']).toBe('input_required');
    const requests = waiting['inputRequests'] as Record<
      string,
      { method: string; params: unknown }
    >;
    const [key, request] = Object.entries(requests)[0]!;
    expect(Object.keys(requests)).toHaveLength(1);
    expect(request.method).toBe('elicitation/create');
    expect(request.params).toMatchObject({ message: '[t26] What is your name?' });
    // A key it was not asked under changes nothing.
    await rpc('tasks/update', { taskId, inputResponses: { nope: { action: 'decline' } } });
    expect((await get())['status']).toBe('input_required');

    const update = await rpc('tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } },
    });
    expect(update.error).toBeUndefined();
    const ended = await pollUntilEnded(get);
    expect(ended['status']).toBe('completed');
    expect(text(ended['result'])).toBe('answered: Grace');
  });

  it('an answer that does not match the question’s schema never reaches the server, and says why', async () => {
    const created = await rpc('tools/call', { name: 't26__ask_job', arguments: { seconds: 0 } });
    const taskId = created.result!['taskId'] as string;
    const get = async () => (await rpc('tasks/get', { taskId })).result!;
    const waiting = await pastWorking(get);
    const [key] = Object.keys(waiting['inputRequests'] as object);
    await rpc('tasks/update', {
      taskId,
      inputResponses: { [key!]: { action: 'accept', content: { name: 42 } } },
    });
    const ended = await pollUntilEnded(get);
    expect(ended['result']).toEqual({
      content: [
        {
          type: 'text',
          text: 'tools/call to MCP server `t26` failed: elicitation reply does not match the requested schema: data/name must be string',
        },
      ],
      isError: true,
    });
    expect(storedTask(files.t26, taskId.split('/')[1]!)?.['answer']).toBeUndefined();
  });

  it('a client that declared no elicitation: the question is declined, the task goes on', async () => {
    const created = await modernRpc(gateway.url, TOKEN, 'tools/call', {
      name: 't26__ask_job',
      arguments: { seconds: 0 },
    });
    const taskId = created.result!['taskId'] as string;
    const ended = await pollUntilEnded(
      async () => (await modernRpc(gateway.url, TOKEN, 'tasks/get', { taskId })).result!,
    );
    expect(ended['status']).toBe('completed');
    expect(text(ended['result'])).toBe('declined');
  });
});
