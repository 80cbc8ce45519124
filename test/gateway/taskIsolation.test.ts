/**
 * Tasks through the gateway belong to the caller that started them: over the HTTP listener with
 * callers told apart by an authenticator (`Bearer alice`, `Bearer bob`), bob polling, cancelling
 * or answering alice's task is told it is unknown — as for an id never issued — and the task goes
 * on untouched for alice, whose poll sees it finish; its server's question waits for alice alone. The gateway, listener, task fixture and
 * requests are real (raw 2026-07-28 JSON-RPC declaring the tasks extension).
 */

import { Gateway, listenGatewayHttp } from '@mcprt/gateway';
import type { Caller, GatewayHttpListener, HttpAuthenticator } from '@mcprt/gateway';
import { Runtime } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, tempDir, text } from '../helpers/fixtures.js';
import { storedTask, taskFiles, taskServer } from '../helpers/tasks.js';
import { modernRpc, pastWorking, pollUntilEnded } from './taskHelpers.js';

const caller = (subject: string): Caller => ({
  kind: 'oauth',
  subject,
  clientId: 'cli',
  scopes: [],
  groups: [],
});
const CALLERS: Record<string, Caller> = { alice: caller('alice'), bob: caller('bob') };
const byName: HttpAuthenticator = {
  authenticate: async (authorization) => {
    const found = CALLERS[authorization?.replace(/^Bearer /, '') ?? ''];
    return found !== undefined
      ? { ok: true, caller: found }
      : { ok: false, status: 401, headers: {}, body: 'no\n' };
  },
  publicDocument: () => null,
};

const files = taskFiles(tempDir('mcprt-task-iso-'), 't26');
let runtime: Runtime;
let gateway: Gateway;
let listener: GatewayHttpListener;

beforeAll(async () => {
  runtime = Runtime.load({
    home: makeHome(taskServer('mcp_servers.t26', files, 'local')),
    processEnv: process.env,
  });
  gateway = new Gateway({ runtime, cwd: tempDir(), log: () => undefined });
  listener = await listenGatewayHttp(gateway, {
    host: '127.0.0.1',
    port: 0,
    authenticator: byName,
  });
});
afterAll(async () => {
  await listener?.close();
  await gateway?.close();
  await runtime?.close();
});

describe('a task belongs to its caller', () => {
  it('another caller can neither poll, cancel nor answer it; its owner sees it finish', async () => {
    const as = (who: string) => (method: string, params: Record<string, unknown>) =>
      modernRpc(listener.url, who, method, params);
    const alice = as('alice');
    const bob = as('bob');
    const created = await alice('tools/call', {
      name: 't26__slow_job',
      arguments: { seconds: 1, label: 'mine' },
    });
    const taskId = created.result!['taskId'] as string;
    expect(taskId).toMatch(/^t26\//);
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/cancel', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
    ] as const) {
      const answer = await bob(method, params);
      expect(answer.error?.message).toBe(`Unknown task: ${taskId}`);
    }
    const ended = await pollUntilEnded(async () => (await alice('tasks/get', { taskId })).result!);
    expect(ended['status']).toBe('completed');
    expect(text(ended['result'])).toBe('done: mine in local');
    const upstream = storedTask(files, taskId.split('/')[1]!);
    expect(upstream?.['cancelled']).toBeUndefined();
  });

  it('its server’s question waits for its owner only: another caller can neither see nor answer it', async () => {
    const form = { elicitation: { form: {} } };
    const as = (who: string) => (method: string, params: Record<string, unknown>) =>
      modernRpc(listener.url, who, method, params, true, form);
    const alice = as('alice');
    const bob = as('bob');
    const created = await alice('tools/call', { name: 't26__ask_job', arguments: { seconds: 0 } });
    const taskId = created.result!['taskId'] as string;
    // Bob, with a task of his own on the same server, meanwhile.
    const his = await bob('tools/call', {
      name: 't26__slow_job',
      arguments: { seconds: 2, label: 'his' },
    });
    const hisId = his.result!['taskId'] as string;
    const get = async () => (await alice('tasks/get', { taskId })).result!;
    const waiting = await pastWorking(get);
    expect(waiting['status']).toBe('input_required');
    const [key] = Object.keys(waiting['inputRequests'] as object);
    const answer = { [key!]: { action: 'accept', content: { name: 'Mallory' } } };
    expect((await bob('tasks/update', { taskId, inputResponses: answer })).error?.message).toBe(
      `Unknown task: ${taskId}`,
    );
    // Bob's own task holds no question, and bob answering under alice's key through it does
    // nothing to hers.
    const mine = (await bob('tasks/get', { taskId: hisId })).result!;
    expect(mine['inputRequests']).toBeUndefined();
    await bob('tasks/update', { taskId: hisId, inputResponses: answer });
    expect((await get())['status']).toBe('input_required');

    await alice('tasks/update', {
      taskId,
      inputResponses: { [key!]: { action: 'accept', content: { name: 'Alice' } } },
    });
    const ended = await pollUntilEnded(get);
    expect(text(ended['result'])).toBe('answered: Alice');
  });
});
