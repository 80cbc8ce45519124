import { createServer } from 'node:net';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startWsPeerServer, type WsPeerServer } from '../test-fixtures/wsPeerServer.js';
import { WebSocketTransport } from './webSocketTransport.js';

const TOKEN = 'secret-token';
let server: WsPeerServer;
const transports: WebSocketTransport[] = [];

beforeEach(async () => {
  server = await startWsPeerServer(TOKEN);
});
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await server.close();
});

function open(token: string | undefined, url = server.url) {
  const transport = new WebSocketTransport(url, token === undefined ? {} : { token });
  transports.push(transport);
  const messages: unknown[] = [];
  const errors: Error[] = [];
  transport.onMessage((m) => messages.push(m));
  transport.onError((e) => errors.push(e));
  return { transport, messages, errors };
}

const nextMessage = (messages: unknown[], count: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const deadline = Date.now() + 5000;
    const tick = (): void => {
      if (messages.length >= count) resolve();
      else if (Date.now() > deadline) reject(new Error('no message in time'));
      else setTimeout(tick, 5);
    };
    tick();
  });

describe('WebSocketTransport', () => {
  it('sends the bearer token and exchanges one JSON message per frame', async () => {
    const { transport, messages } = open(TOKEN);
    await transport.connect();
    expect(server.authorizations).toEqual([`Bearer ${TOKEN}`]);
    transport.send({ id: 7, method: 'environment/list', params: {} });
    await nextMessage(messages, 1);
    expect(messages).toEqual([{ id: 7, result: { data: [] } }]);
  });

  it('rejects connect() with the HTTP status and body when the token is wrong', async () => {
    const { transport } = open('wrong');
    const closes: (Error | undefined)[] = [];
    transport.onClose((e) => closes.push(e));
    await expect(transport.connect()).rejects.toThrow(
      `WebSocket handshake with ${server.url}/ failed: HTTP 401 Unauthorized: missing or invalid bearer token`,
    );
    expect(closes).toHaveLength(1);
    expect(() => transport.send({})).toThrow(/transport is closed/);
  });

  it('rejects connect() with 401 when no token is given', async () => {
    const { transport } = open(undefined);
    await expect(transport.connect()).rejects.toThrow(/HTTP 401/);
    expect(server.authorizations).toEqual([undefined]);
  });

  it('rejects connect() clearly when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));
    const { transport } = open(TOKEN, `ws://127.0.0.1:${port}`);
    await expect(transport.connect()).rejects.toThrow(
      new RegExp(`WebSocket connection to ws://127.0.0.1:${port}/ failed: .*ECONNREFUSED`),
    );
  });

  it('reports a frame that is not JSON and keeps going', async () => {
    const { transport, messages, errors } = open(TOKEN);
    await transport.connect();
    transport.send({
      id: 1,
      method: 'mcpServer/tool/call',
      params: { threadId: 't', server: 's', tool: 'garbage' },
    });
    await nextMessage(messages, 2);
    expect(errors.map((e) => e.message)).toEqual([
      'app-server sent a line that is not JSON: "this is not json"',
    ]);
  });

  it('reports the close code when the server drops the connection', async () => {
    const { transport } = open(TOKEN);
    await transport.connect();
    const closed = new Promise<Error | undefined>((resolve) => transport.onClose(resolve));
    transport.send({
      id: 1,
      method: 'mcpServer/tool/call',
      params: { threadId: 't', server: 's', tool: 'exit', arguments: { code: 2 } },
    });
    expect((await closed)?.message).toBe(
      'WebSocket connection closed by the app-server (code 4002: peer exiting)',
    );
  });

  it('closes cleanly on close()', async () => {
    const { transport } = open(TOKEN);
    await transport.connect();
    const closes: (Error | undefined)[] = [];
    transport.onClose((e) => closes.push(e));
    await transport.close();
    expect(closes).toEqual([undefined]);
  });
});
