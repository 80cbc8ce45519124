import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { ErrorCode, ProtocolError } from '@mcprt/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import { startWsPeerServer } from '../test-fixtures/wsPeerServer.js';
import { McprtClient } from './client.js';
import type { AnyServerNotification, ServerNotification } from './clientTypes.js';
import { ConnectionClosedError, RequestTimeoutError } from './errors.js';
import type { ClientTransport } from './transport.js';
import { SDK_VERSION } from './version.js';

const PEER = fileURLToPath(new URL('../test-fixtures/peer.mjs', import.meta.url));

const clients: McprtClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function spawnPeer(options: Parameters<typeof McprtClient.spawn>[0] = {}) {
  const errors: Error[] = [];
  const client = await McprtClient.spawn({
    args: [PEER],
    onError: (error) => errors.push(error),
    ...options,
  });
  clients.push(client);
  return { client, errors };
}

const call = (client: McprtClient, tool: string, args: Record<string, unknown> = {}, opts = {}) =>
  client.request(
    'mcpServer/tool/call',
    { threadId: 'thread-1', server: 'echo', tool, arguments: args },
    opts,
  );

const textOf = (result: { content: unknown[] }): unknown =>
  (result.content[0] as { text?: unknown } | undefined)?.text;

/** Has the peer send server request `method` and return the client's response to it. */
const ask = (client: McprtClient, method: string, params: unknown) =>
  call(client, 'ask', { method, params }).then(
    (r) => (r.structuredContent as { response: Record<string, unknown> }).response,
  );

/** Everything the peer received so far, as recorded by its `received` scenario. */
async function peerReceived(client: McprtClient): Promise<Record<string, unknown>[]> {
  const result = await call(client, 'received');
  return (result.structuredContent as { messages: Record<string, unknown>[] }).messages;
}

describe('McprtClient handshake', () => {
  it('sends initialize with clientInfo and experimentalApi, then initialized, all with jsonrpc 2.0', async () => {
    const { client } = await spawnPeer();
    const [initialize, initialized] = await peerReceived(client);
    expect(initialize).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        clientInfo: { name: 'mcprt-sdk', title: 'mcprt SDK', version: SDK_VERSION },
        capabilities: { experimentalApi: true },
      },
    });
    expect(initialized).toEqual({ jsonrpc: '2.0', method: 'initialized' });
    expect(client.initializeResult).toEqual({
      userAgent: 'mcprt-sdk/0.0.0 (peer)',
      codexHome: '/tmp/peer-home',
      platformFamily: 'unix',
      platformOs: 'linux',
    });
  });

  it('uses the given clientInfo', async () => {
    const { client } = await spawnPeer({ clientInfo: { name: 'my-ide', version: '9.9.9' } });
    expect(client.initializeResult.userAgent).toBe('my-ide/0.0.0 (peer)');
    const [initialize] = await peerReceived(client);
    expect(initialize).toMatchObject({
      params: { clientInfo: { name: 'my-ide', version: '9.9.9' } },
    });
  });

  it('fails spawn() with the exit status and stderr when the app-server dies during the handshake', async () => {
    const script = "process.stderr.write('boom: no config\\n'); process.exit(4)";
    await expect(McprtClient.spawn({ args: ['-e', script] })).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof ConnectionClosedError &&
        /initialize \(request 1\) got no response: connection lost: app-server process exited with code 4; stderr:\nboom: no config/.test(
          error.message,
        ),
    );
  });

  it('fails spawn() when the app-server never answers initialize', async () => {
    const script = 'process.stdin.resume()';
    await expect(
      McprtClient.spawn({ args: ['-e', script], initializeTimeoutMs: 100 }),
    ).rejects.toThrow(new RequestTimeoutError('initialize', 100));
  });

  it('pins SDK_VERSION to package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});

describe('McprtClient requests', () => {
  it('returns the result as received', async () => {
    const { client } = await spawnPeer();
    expect(await call(client, 'echo', { text: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(await client.request('environment/list', {})).toEqual({ data: [] });
  });

  it('matches concurrent responses to their requests by id', async () => {
    const { client } = await spawnPeer();
    const results = await Promise.all([
      call(client, 'echo', { text: 'slow', delayMs: 60 }),
      call(client, 'echo', { text: 'medium', delayMs: 30 }),
      call(client, 'echo', { text: 'fast' }),
    ]);
    expect(results.map(textOf)).toEqual(['slow', 'medium', 'fast']);
    const ids = (await peerReceived(client)).map((m) => m['id']);
    expect(ids).toEqual([1, undefined, 2, 3, 4, 5]);
  });

  it('rejects an error response with a ProtocolError carrying code, message and data', async () => {
    const { client } = await spawnPeer();
    const error = await call(client, 'fail').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: ErrorCode.InternalError,
      message: "unknown MCP server 'x'",
      data: { server: 'x' },
    });
    const unknown = await client.request('config/mcpServer/reload', {}).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: ErrorCode.InvalidRequest });
  });

  it('rejects on timeout, forgets the id and ignores the late answer', async () => {
    const { client, errors } = await spawnPeer();
    await expect(
      call(client, 'echo', { text: 'late', delayMs: 150 }, { timeoutMs: 20 }),
    ).rejects.toThrow(new RequestTimeoutError('mcpServer/tool/call', 20));
    await new Promise((r) => setTimeout(r, 200));
    expect(textOf(await call(client, 'echo', { text: 'next' }))).toBe('next');
    expect(errors).toEqual([]);
  });

  it('applies requestTimeoutMs as the default timeout', async () => {
    const { client } = await spawnPeer({ requestTimeoutMs: 30 });
    await expect(call(client, 'hang')).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('rejects with the abort reason when the signal aborts', async () => {
    const { client } = await spawnPeer();
    const controller = new AbortController();
    const pending = call(client, 'hang', {}, { signal: controller.signal });
    controller.abort(new Error('user gave up'));
    await expect(pending).rejects.toThrow('user gave up');
    await expect(
      call(client, 'echo', { text: 'x' }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects an invalid timeout with a TypeError naming the option', async () => {
    const { client } = await spawnPeer();
    await expect(call(client, 'echo', {}, { timeoutMs: -1 })).rejects.toThrow(
      /timeoutMs must be a number of ms between 0 and \d+, got -1 \(number\)/,
    );
  });

  it('survives malformed lines and invalid messages from the peer', async () => {
    const { client, errors } = await spawnPeer();
    expect(textOf(await call(client, 'garbage'))).toBe('after garbage');
    expect(errors.map((e) => e.message)).toEqual([
      'app-server sent a line that is not JSON: "this is not json"',
      'app-server sent an invalid message: Invalid request: jsonrpc must be "2.0" when present',
    ]);
    expect(textOf(await call(client, 'echo', { text: 'still alive' }))).toBe('still alive');
  });

  it('reports an answer to an id it never sent', async () => {
    const { client, errors } = await spawnPeer();
    expect(textOf(await call(client, 'foreignId'))).toBe('after foreign id');
    expect(errors.map((e) => e.message)).toEqual(['app-server answered unknown request id 999999']);
  });

  it('rejects pending requests with ConnectionClosedError when the app-server exits', async () => {
    const { client } = await spawnPeer();
    const closes: (Error | undefined)[] = [];
    client.onClose((error) => closes.push(error));
    const hanging = call(client, 'hang');
    const exiting = call(client, 'exit', { code: 7 });
    for (const outcome of await Promise.allSettled([hanging, exiting])) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason as unknown;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as Error).message).toMatch(
        /^mcpServer\/tool\/call \(request \d\) got no response: connection lost: app-server process exited with code 7; stderr:\npeer exiting$/,
      );
      expect((error as Error).cause).toBe(closes[0]);
    }
    expect(client.closed).toBe(true);
    await expect(call(client, 'echo')).rejects.toThrow(
      /^mcpServer\/tool\/call was not sent: connection lost: app-server process exited with code 7/,
    );
  });

  it('close() rejects pending requests, kills the app-server and is idempotent', async () => {
    const { client } = await spawnPeer();
    const { pid } = (await call(client, 'pid')).structuredContent as { pid: number };
    const hanging = expect(call(client, 'hang')).rejects.toThrow(
      /^mcpServer\/tool\/call \(request \d\) got no response: the client was closed$/,
    );
    await client.close();
    await hanging;
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    await client.close();
    await expect(call(client, 'echo')).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe('McprtClient notifications', () => {
  it('calls handlers with params and the envelope, until unsubscribed', async () => {
    const { client } = await spawnPeer();
    const progress: string[] = [];
    const started: ServerNotification<'item/started'>[] = [];
    const off = client.on('item/mcpToolCall/progress', (params) => {
      progress.push(params.message);
    });
    client.on('item/started', (_params, notification) => {
      started.push(notification);
    });
    await call(client, 'progress');
    expect(progress).toEqual(['half', 'done']);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      method: 'item/started',
      params: { threadId: 'thread-1', item: { type: 'mcpToolCall', status: 'inProgress' } },
    });
    expect(started[0]?.emittedAtMs).toBeTypeOf('number');
    off();
    await call(client, 'progress');
    expect(progress).toEqual(['half', 'done']);
  });

  it('reports a handler that throws and keeps dispatching', async () => {
    const { client, errors } = await spawnPeer();
    const seen: string[] = [];
    client.on('item/mcpToolCall/progress', () => {
      throw new Error('handler bug');
    });
    client.on('item/mcpToolCall/progress', async (params) => {
      seen.push(params.message);
      throw new Error('async handler bug');
    });
    await call(client, 'progress');
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['half', 'done']);
    expect(errors.map((e) => e.message).sort()).toEqual([
      'async handler bug',
      'async handler bug',
      'handler bug',
      'handler bug',
    ]);
  });

  it('buffers notifications between notifications() and iteration', async () => {
    const { client } = await spawnPeer();
    const progress = client.notifications('item/mcpToolCall/progress');
    await call(client, 'progress');
    const messages: string[] = [];
    for await (const notification of progress) {
      messages.push(notification.params.message);
      if (messages.length === 2) break;
    }
    expect(messages).toEqual(['half', 'done']);
  });

  it('notifications() without a method yields every known notification, in order', async () => {
    const { client } = await spawnPeer();
    const all = client.notifications();
    await call(client, 'progress');
    await client.close();
    const methods: AnyServerNotification['method'][] = [];
    for await (const notification of all) methods.push(notification.method);
    // `thread/status/changed` is not in the method table: left out, not passed on untyped.
    expect(methods).toEqual([
      'item/started',
      'item/mcpToolCall/progress',
      'item/mcpToolCall/progress',
      'item/completed',
    ]);
  });

  it('ends iteration when the client closes, and immediately for a closed client', async () => {
    const { client } = await spawnPeer();
    const stream = client.notifications('item/completed');
    const next = stream.next();
    await client.close();
    expect(await next).toEqual({ value: undefined, done: true });
    expect(await client.notifications().next()).toEqual({ value: undefined, done: true });
  });

  it('ends iteration when the signal aborts', async () => {
    const { client } = await spawnPeer();
    const controller = new AbortController();
    const stream = client.notifications('item/completed', { signal: controller.signal });
    const next = stream.next();
    controller.abort();
    expect(await next).toEqual({ value: undefined, done: true });
  });
});

describe('McprtClient server requests', () => {
  const elicitation = {
    threadId: 'thread-1',
    turnId: null,
    serverName: 'everything',
    environmentId: null,
    _meta: null,
    mode: 'form',
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  };

  it('answers with the registered handler and passes params and context', async () => {
    const { client } = await spawnPeer();
    const contexts: unknown[] = [];
    client.handleRequest('mcpServer/elicitation/request', async (params, context) => {
      contexts.push(context);
      expect(params.mode).toBe('form');
      return { action: 'accept', content: { name: params.message.length } };
    });
    expect(await ask(client, 'mcpServer/elicitation/request', elicitation)).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: { action: 'accept', content: { name: 10 } },
    });
    expect(contexts).toMatchObject([{ id: 0, method: 'mcpServer/elicitation/request' }]);
  });

  it('declines an elicitation when no handler is registered', async () => {
    const { client } = await spawnPeer();
    expect(await ask(client, 'mcpServer/elicitation/request', elicitation)).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: { action: 'decline', content: null },
    });
  });

  it('falls back to the default once the handler is unsubscribed', async () => {
    const { client } = await spawnPeer();
    const off = client.handleRequest('mcpServer/elicitation/request', () => ({ action: 'cancel' }));
    expect(await ask(client, 'mcpServer/elicitation/request', elicitation)).toMatchObject({
      result: { action: 'cancel' },
    });
    off();
    expect(await ask(client, 'mcpServer/elicitation/request', elicitation)).toMatchObject({
      id: 1,
      result: { action: 'decline', content: null },
    });
  });

  it('answers -32601 to a server request nobody handles', async () => {
    const { client } = await spawnPeer();
    expect(await ask(client, 'item/permissions/requestApproval', { x: 1 })).toEqual({
      jsonrpc: '2.0',
      id: 0,
      error: { code: -32601, message: 'no handler for item/permissions/requestApproval' },
    });
  });

  it('turns a thrown ProtocolError into that error response, anything else into -32603', async () => {
    const { client } = await spawnPeer();
    const off = client.handleRequest('mcpServer/elicitation/request', () => {
      throw new ProtocolError(-32000, 'user is away', { retryAfterS: 5 });
    });
    expect(await ask(client, 'mcpServer/elicitation/request', elicitation)).toMatchObject({
      error: { code: -32000, message: 'user is away', data: { retryAfterS: 5 } },
    });
    off();
    client.handleRequest('mcpServer/elicitation/request', async () => {
      throw new Error('UI crashed');
    });
    expect(await ask(client, 'mcpServer/elicitation/request', elicitation)).toMatchObject({
      error: { code: -32603, message: 'UI crashed' },
    });
  });
});

describe('McprtClient over WebSocket', () => {
  it('connects with the bearer token, handshakes and calls', async () => {
    const server = await startWsPeerServer('tok');
    try {
      const client = await McprtClient.connect(server.url, { token: 'tok' });
      clients.push(client);
      expect(server.authorizations).toEqual(['Bearer tok']);
      expect(client.initializeResult.platformOs).toBe('linux');
      const progress = client.notifications('item/mcpToolCall/progress');
      expect(textOf(await call(client, 'progress'))).toBe('progressed');
      expect((await progress.next()).value?.params.message).toBe('half');
      expect(await ask(client, 'mcpServer/elicitation/request', {})).toMatchObject({
        result: { action: 'decline', content: null },
      });
      await client.close();
    } finally {
      await server.close();
    }
  });
  it('rejects connect() with HTTP 401 for a wrong token', async () => {
    const server = await startWsPeerServer('tok');
    try {
      await expect(McprtClient.connect(server.url, { token: 'nope' })).rejects.toThrow(
        /failed: HTTP 401 Unauthorized/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('McprtClient.create', () => {
  it('handshakes over any ClientTransport', async () => {
    const sent: Record<string, unknown>[] = [];
    let deliver: (message: unknown) => void = () => {};
    const transport: ClientTransport = {
      send(message) {
        sent.push(message as Record<string, unknown>);
        if (message && (message as { method?: string }).method === 'initialize') {
          queueMicrotask(() =>
            deliver({
              id: (message as { id: number }).id,
              result: {
                userAgent: 'x',
                codexHome: '/',
                platformFamily: 'unix',
                platformOs: 'linux',
              },
            }),
          );
        }
      },
      onMessage(handler) {
        deliver = handler;
        return () => {};
      },
      onClose: () => () => {},
      close: async () => {},
    };
    const client = await McprtClient.create(transport);
    expect(client.initializeResult.userAgent).toBe('x');
    expect(sent.map((m) => m['method'])).toEqual(['initialize', 'initialized']);
    await client.close();
  });
});
