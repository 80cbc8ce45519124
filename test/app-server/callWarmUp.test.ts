// The app-server's priming (ADR 0027): once per process, while a thread's servers start, its
// tool-call handling (params check, item and response texts) and the runtime's call path run on
// synthetic data. The client must receive nothing from it, the server must receive nothing, no
// history may be written, and the first real call must look exactly as before. An in-process
// app-server (so this process's priming state can be read) on a real dependency-free server that
// reports every message it received (test/fixtures/servers/fastpath-server.mjs, `arrivals`).
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { AppServer } from '@mcprt/app-server';
import { Runtime } from '@mcprt/runtime';

import { toolCallHandlingPrimed } from '../../packages/app-server/src/callWarmUp.js';
import { callPathPrimed } from '../../packages/runtime/src/manager/callPathWarmUp.js';
import { arr, FIXTURES, makeHome, NODE, q } from '../helpers/fixtures.js';
import { historyBytes } from '../helpers/history.js';

type Message = {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

const home = makeHome(
  `[mcp_servers.fp]\ncommand = ${q(NODE)}\nargs = ${arr([join(FIXTURES, 'fastpath-server.mjs')])}\n`,
);
const server = new AppServer({ runtime: Runtime.load({ home }), home, log: () => {} });
afterAll(() => server.close());

const received: Message[] = [];
const peer = server.attach(
  { send: (text) => received.push(JSON.parse(text) as Message), close: () => undefined },
  { privileged: true },
);
let nextId = 1;
async function call(method: string, params: unknown): Promise<Record<string, unknown>> {
  const id = nextId++;
  peer.receive(JSON.stringify({ id, method, params }));
  await expect.poll(() => received.some((m) => m.id === id), { timeout: 20_000 }).toBe(true);
  const reply = received.find((m) => m.id === id)!;
  if (reply.error !== undefined) throw new Error(JSON.stringify(reply.error));
  return reply.result as Record<string, unknown>;
}
const items = () => received.filter((m) => m.method?.startsWith('item/')).map((m) => m.method);

describe('priming the app-server', () => {
  it('sends the client and the server nothing, records nothing, leaves the first call as is', async () => {
    expect([toolCallHandlingPrimed(), callPathPrimed()]).toEqual([false, false]);
    await call('initialize', { clientInfo: { name: 't', version: '0' } });
    const { thread } = (await call('thread/start', { ephemeral: true })) as {
      thread: { id: string };
    };
    const ready = (m: Message) =>
      m.method === 'mcpServer/startupStatus/updated' &&
      (m.params as { status: string }).status === 'ready';
    await expect.poll(() => received.some(ready), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => [toolCallHandlingPrimed(), callPathPrimed()]).toEqual([true, true]);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const before = received.length;
    expect(items()).toEqual([]);
    expect(await call('history/list', {})).toMatchObject({ data: [] });
    expect(historyBytes(home)).not.toContain('warm-up');
    expect(received.length).toBe(before + 1);

    const result = (await call('mcpServer/tool/call', {
      threadId: thread.id,
      server: 'fp',
      tool: 'arrivals',
    })) as { content: { text: string }[] };
    const arrivals = JSON.parse(result.content[0]!.text) as string[];
    expect(arrivals.filter((a) => a.startsWith('tools/call'))).toEqual(['tools/call mcprt-1']);
    expect(JSON.stringify(arrivals)).not.toContain('warm-up');
    expect(items()).toEqual(['item/started', 'item/completed']);
    expect(JSON.stringify(received)).not.toContain('warm-up');
    const history = (await call('history/list', {})) as { data: { tool: string }[] };
    expect(history.data.map((r) => r.tool)).toEqual(['arrivals']);
  });
});
