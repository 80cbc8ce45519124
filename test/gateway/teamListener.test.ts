/**
 * The gateway's HTTP listener for a team (issue 30, points 1, 2 and 4): the authenticator seam —
 * public documents without a token, refusals as the authenticator says and before the body is
 * read, the caller handed to every server instance of both eras, 2025 sessions that belong to
 * the caller that opened them — and requests whose Host or target is malformed (userinfo,
 * absolute-form, a path or space in Host, `*`) answered 400, never 500, with the process still
 * serving and nothing the attacker wrote broadcast to connected clients. The gateway, listener,
 * servers and SDK clients are real; callers are told apart by a test authenticator mapping fixed
 * bearer strings to callers (`Bearer alice`).
 */

import { connect } from 'node:net';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway, listenGatewayHttp } from '@mcprt/gateway';
import type { Caller, GatewayHttpListener, HttpAuthenticator } from '@mcprt/gateway';
import { Runtime } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  arr,
  ECHO_SERVER,
  echoServer,
  makeHome,
  NODE,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import type { GatewayClient, HttpGateway } from './helpers.js';
import { httpClient, httpGateway, texts, TOKEN } from './helpers.js';

const oauth = (subject: string, clientId: string): Caller => ({
  kind: 'oauth',
  subject,
  clientId,
  scopes: [],
  groups: [],
});
const CALLERS: Record<string, Caller> = {
  alice: oauth('alice', 'cli-1'),
  'alice-other-client': oauth('alice', 'cli-2'),
  bob: oauth('bob', 'cli-1'),
};
const DOCUMENT = { contentType: 'application/json', body: '{"public":true}' };

/** `Bearer <name>` is that caller; `Bearer forbidden` is 403; anything else 401. */
const byName: HttpAuthenticator = {
  authenticate: async (authorization) => {
    const name = authorization?.replace(/^Bearer /, '') ?? '';
    const caller = CALLERS[name];
    if (caller !== undefined) return { ok: true, caller };
    return name === 'forbidden'
      ? { ok: false, status: 403, headers: { 'x-refused': 'yes' }, body: 'forbidden\n' }
      : { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer' }, body: 'no\n' };
  },
  publicDocument: (path) => (path === '/.well-known/test-document' ? DOCUMENT : null),
};

/** Write `text` on a raw connection; resolves with everything answered until it closes. */
function raw(port: number, text: string, waitForClose = true): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (d: Buffer) => {
      answer += String(d);
      if (!waitForClose && answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.once('end', () => resolve(answer));
    socket.once('error', reject);
  });
}

const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

describe('the authenticator seam', () => {
  let runtime: Runtime;
  let gateway: Gateway;
  let listener: GatewayHttpListener;
  const served: { era: string; caller: Caller | undefined }[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    runtime = Runtime.load({
      home: makeHome(echoServer('mcp_servers.echo', 'echo')),
      processEnv: process.env,
    });
    gateway = new Gateway({ runtime, cwd: tempDir(), log: () => undefined });
    const createServer = gateway.createServer.bind(gateway);
    gateway.createServer = (options) => {
      served.push({ era: options.era, caller: options.caller });
      return createServer(options);
    };
    listener = await listenGatewayHttp(gateway, {
      host: '127.0.0.1',
      port: 0,
      authenticator: byName,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await listener?.close();
    await gateway?.close();
    await runtime?.close();
  });

  const port = () => Number(new URL(listener.url).port);

  async function as(name: string, era: 'legacy' | 'auto'): Promise<Client> {
    const client = new Client(
      { name: `as-${name}`, version: '1.0.0' },
      era === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: `Bearer ${name}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it('serves a public document to GET without a token; everything else needs one', async () => {
    const url = listener.url.replace('/mcp', '/.well-known/test-document');
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe(DOCUMENT.contentType);
    expect(await got.text()).toBe(DOCUMENT.body);
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(listener.url.replace('/mcp', '/other'))).status).toBe(401);
  });

  it('answers the refusal the authenticator returns, before reading the body', async () => {
    // A body announced but never sent: the answer cannot wait for it.
    const answer = await raw(
      port(),
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer forbidden\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n',
      false,
    );
    expect(status(answer)).toBe(403);
    expect(answer.toLowerCase()).toContain('x-refused: yes');
  });

  it('hands the caller to every server instance, in both eras', async () => {
    const alice = await as('alice', 'legacy');
    const called = await alice.callTool({ name: 'echo__echo', arguments: { message: 'hi' } });
    expect(texts(called)).toEqual(['echo: hi']);
    const bob = await as('bob', 'auto');
    expect((await bob.listTools()).tools.map((t) => t.name)).toContain('echo__echo');
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((s) => s.caller !== undefined)).toBe(true);
    expect(served).toContainEqual({ era: 'legacy', caller: CALLERS['alice'] });
    expect(served).toContainEqual({ era: 'modern', caller: CALLERS['bob'] });
    expect(served.filter((s) => s.era === 'modern').every((s) => s.caller === CALLERS['bob'])).toBe(
      true,
    );
  });

  it('keeps a 2025 session its caller’s: another caller gets 404 as for an unknown session', async () => {
    const headers = (name: string, session?: string) => ({
      authorization: `Bearer ${name}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session !== undefined ? { 'mcp-session-id': session } : {}),
    });
    const opened = await fetch(listener.url, {
      method: 'POST',
      headers: headers('alice'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const list = (name: string, id = session) =>
      fetch(listener.url, {
        method: 'POST',
        headers: headers(name, id),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    const unknown = await list('bob', 'no-such-session');
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.text();
    for (const other of ['bob', 'alice-other-client']) {
      const response = await list(other);
      expect(response.status, other).toBe(404);
      expect(await response.text()).toBe(unknownBody);
    }
    const deleted = await fetch(listener.url, {
      method: 'DELETE',
      headers: headers('bob', session),
    });
    expect(deleted.status).toBe(404);
    const own = await list('alice');
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('echo__echo');
  });
});

describe('a malformed Host or request target', () => {
  const MARK = 'attacker-text-7f3a';
  let gateway: HttpGateway;
  let watcher: GatewayClient;
  beforeAll(async () => {
    // `slow` is ready two seconds after start: a log line every connected client receives.
    const slow = arr(['-c', 'sleep 2; exec "$0" "$@"', NODE, ECHO_SERVER, '--name', 'slow']);
    const home = makeHome(
      echoServer('mcp_servers.echo', 'echo') +
        `[mcp_servers.slow]\ncommand = "sh"\nargs = ${slow}\n`,
    );
    gateway = await httpGateway(home);
    watcher = await httpClient(gateway.url, 'legacy');
  });
  afterAll(async () => {
    await watcher?.close();
    await gateway?.stop();
  });

  it('is 400, the gateway keeps serving, and connected clients hear nothing of it', async () => {
    // The watcher does receive the gateway's log lines.
    await waitFor(() => JSON.stringify(watcher.logs).includes('`slow` is ready'), 20_000, 'a log');
    const port = new URL(gateway.url).port;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const post = (target: string, host: string) =>
      `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
      'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    const own = `127.0.0.1:${port}`;
    const malformed = [
      post('/mcp', `${MARK}@${own}`),
      post(`http://${MARK}.example/mcp`, own),
      post(`http://${own}/mcp`, own),
      post('/mcp', `${own}/${MARK}`),
      post('/mcp', `127.0.0.1 ${MARK}:${port}`),
      post('/mcp', '127.0.0.1:99999'),
      post('*', own),
    ];
    for (const request of malformed) {
      const answer = await raw(Number(port), request);
      expect(status(answer), request.split('\r\n').slice(0, 2).join(' | ')).toBe(400);
      expect(answer).toContain('\nbad request: malformed Host header or request target\n');
    }
    // Junk the SDK rejects, carrying the attacker's text: its own answers, not broadcast either.
    for (const junk of [`{"${MARK}"`, `{"jsonrpc":"2.0","id":1,"method":"${MARK}"}`]) {
      const answer = await raw(
        Number(port),
        post('/mcp', own)
          .replace(body, junk)
          .replace(/Content-Length: \d+/, `Content-Length: ${junk.length}`),
      );
      expect(status(answer)).not.toBe(500);
    }
    const called = await watcher.client.callTool({
      name: 'echo__echo',
      arguments: { message: 'ok' },
    });
    expect(texts(called)).toEqual(['echo: ok']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(JSON.stringify(watcher.logs)).not.toContain(MARK);
    expect(gateway.stderr()).not.toContain('internal error');
  });
});
