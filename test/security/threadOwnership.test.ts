/**
 * Finding 1 of issue #14: a thread belongs to the connection that started it. Two WebSocket
 * connections to one real app-server each hold a thread; neither can call, cancel, read, list
 * status of, change the sandbox state of, log in through, list environments of, or read the
 * history of the other's thread — every such request is answered exactly as for an id that does
 * not exist (no oracle), and the owner's thread is unchanged afterwards.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, makeHome } from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { metaServer } from '../sandbox/helpers.js';
import type { WsAppServer } from './helpers.js';
import { startWsAppServer, WsClient } from './helpers.js';

const READ_ONLY = { sandboxPolicy: { type: 'readOnly' } };
const FULL = { sandboxPolicy: { type: 'dangerFullAccess' } };

describe('threads belong to their connection (WebSocket app-server)', () => {
  let server: WsAppServer;
  let alice: WsClient;
  let bob: WsClient;
  let aliceThread: string;
  let bobThread: string;

  beforeAll(async () => {
    server = await startWsAppServer(
      makeHome(metaServer('mcp_servers.meta', 'current') + echoServer('mcp_servers.echo', 'echo')),
    );
    alice = await WsClient.connect(server.url, server.token);
    bob = await WsClient.connect(server.url, server.token);
    aliceThread = (
      await alice.call<{ thread: { id: string } }>('thread/start', { sandboxState: READ_ONLY })
    ).thread.id;
    bobThread = (await bob.call<{ thread: { id: string } }>('thread/start', {})).thread.id;
    // Each records one call in the history.
    await alice.call('mcpServer/tool/call', {
      threadId: aliceThread,
      server: 'echo',
      tool: 'echo',
      arguments: { message: 'alice' },
    });
    await bob.call('mcpServer/tool/call', {
      threadId: bobThread,
      server: 'echo',
      tool: 'echo',
      arguments: { message: 'bob' },
    });
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await server?.stop();
  });

  /** Every thread method, with `threadId` filled in. */
  const threadRequests = (threadId: string): [string, Record<string, unknown>][] => [
    [
      'mcpServer/tool/call',
      { threadId, server: 'echo', tool: 'echo', arguments: { message: 'x' } },
    ],
    ['mcpServer/tool/cancel', { threadId, itemId: 'call_x' }],
    ['mcpServer/resource/read', { threadId, server: 'echo', uri: 'test://x' }],
    ['mcpServerStatus/list', { threadId }],
    ['thread/sandboxState/update', { threadId, sandboxState: FULL }],
    ['environment/list', { threadId }],
    ['mcpServer/oauth/login', { threadId, name: 'echo' }],
    ['history/list', { threadId }],
    ['mcpServer/tool/search', { threadId, query: 'echo' }],
    ['thread/toolView/get', { threadId }],
  ];

  /** The error answer, without the (per-request) id. */
  const errorOf = (reply: Message) => ({ error: reply.error, result: reply.result });

  it("another connection's thread id is answered exactly like an unknown id", async () => {
    for (const [intruder, victimThread] of [
      [bob, aliceThread],
      [alice, bobThread],
    ] as const) {
      for (const [method, params] of threadRequests(victimThread)) {
        const foreign = await intruder.request(method, params);
        const unknown = await intruder.request(method, {
          ...params,
          threadId: victimThread.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        });
        expect(errorOf(foreign), method).toEqual({
          error: { code: -32600, message: `thread not found: ${victimThread}` },
          result: undefined,
        });
        expect(errorOf(unknown).error?.code, method).toBe(-32600);
        expect(errorOf(unknown).error?.message, method).toMatch(/^thread not found: /);
      }
    }
  });

  it("history/list without a thread lists only the caller's threads", async () => {
    const threadsIn = async (client: WsClient) =>
      new Set(
        (await client.call<{ data: { threadId: string }[] }>('history/list', {})).data.map(
          (e) => e.threadId,
        ),
      );
    expect(await threadsIn(alice)).toEqual(new Set([aliceThread]));
    expect(await threadsIn(bob)).toEqual(new Set([bobThread]));
    const own = await alice.call<{ data: { threadId: string }[] }>('history/list', {
      threadId: aliceThread,
    });
    expect(own.data.map((e) => e.threadId)).toEqual([aliceThread]);
  });

  it("the owner's thread is unchanged by the other's attempts: same sandbox state", async () => {
    await bob.request('thread/sandboxState/update', { threadId: aliceThread, sandboxState: FULL });
    const reply = await alice.call<{ content: { text: string }[] }>('mcpServer/tool/call', {
      threadId: aliceThread,
      server: 'meta',
      tool: 'meta',
    });
    const request = JSON.parse(reply.content[0]!.text) as {
      params: { _meta: Record<string, unknown> };
    };
    expect(request.params._meta['codex/sandbox-state']).toEqual(READ_ONLY);
    expect(
      await alice.call('thread/sandboxState/update', { threadId: aliceThread, sandboxState: null }),
    ).toEqual({});
  });
});
