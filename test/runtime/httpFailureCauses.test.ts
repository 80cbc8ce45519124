// Issue 35: a streamable-HTTP server that cannot be reached fails naming the request and its root
// cause, briefly (failureCause.ts), never a secret of its URL. Real listeners: a closed port, a
// server that drops or resets the connection, an untrusted self-signed TLS server, an HTTP 500
// with a body, an unresolvable host; and a live server that goes away under a tool call.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
} from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HTTP_SERVER, NODE, tempDir } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

const servers: (Server | NetServer)[] = [];

async function listen<S extends Server | NetServer>(server: S): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The status error of a server whose startup failed, in a runtime of just that server. */
async function startupError(url: string, extra = ''): Promise<string> {
  const runtime = load(`[mcp_servers.docs]\nurl = ${JSON.stringify(url)}\n${extra}`);
  const session = runtime.startSession();
  await session.ready();
  const status = session.status('docs');
  expect(status.startupStatus).toBe('failed');
  expect(status.error).not.toBeNull();
  expect(status.error).not.toContain('secret123');
  return status.error!;
}

describe('why an HTTP server failed to start', () => {
  it('a closed port: connect ECONNREFUSED, the query string (a token) left out', async () => {
    const port = await closedPort();
    const error = await startupError(`http://127.0.0.1:${port}/mcp?token=secret123`);
    expect(error).toBe(
      `MCP client for \`docs\` failed to start: POST http://127.0.0.1:${port}/mcp: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('userinfo in the URL never shows', async () => {
    const port = await closedPort();
    const error = await startupError(`http://user:secret123@127.0.0.1:${port}/mcp#frag`);
    // fetch refuses such a URL, quoting it: the quote is redacted too.
    expect(error).toBe(
      `MCP client for \`docs\` failed to start: POST http://127.0.0.1:${port}/mcp: Request cannot be constructed from a URL that includes credentials: http://127.0.0.1:${port}/mcp`,
    );
  });

  it('a server that closes the connection under the request: other side closed (UND_ERR_SOCKET)', async () => {
    const port = await listen(
      createNetServer((socket) => socket.once('data', () => socket.destroy())),
    );
    const error = await startupError(`http://127.0.0.1:${port}/mcp`);
    expect(error).toBe(
      `MCP client for \`docs\` failed to start: POST http://127.0.0.1:${port}/mcp: other side closed (UND_ERR_SOCKET)`,
    );
  });

  it('a server that resets the connection: ECONNRESET', async () => {
    const port = await listen(createNetServer((socket) => socket.resetAndDestroy()));
    const error = await startupError(`http://127.0.0.1:${port}/mcp`);
    expect(error).toMatch(
      new RegExp(
        `^MCP client for \`docs\` failed to start: POST http://127\\.0\\.0\\.1:${port}/mcp: .*ECONNRESET`,
      ),
    );
  });

  it('an untrusted self-signed TLS server: certificate verify failed', async () => {
    const dir = tempDir('mcprt-tls-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const tls = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.end('{}'),
    );
    const port = await listen(tls);
    const error = await startupError(`https://127.0.0.1:${port}/mcp`);
    expect(error).toBe(
      `MCP client for \`docs\` failed to start: POST https://127.0.0.1:${port}/mcp: certificate verify failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    );
  });

  describe('HTTP 500 with a body', () => {
    let port = 0;
    beforeAll(async () => {
      port = await listen(
        createServer((_req, res) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('database is down\nmore');
        }),
      );
    });

    it('names the status and the first line of the body (version probe)', async () => {
      const error = await startupError(`http://127.0.0.1:${port}/mcp?token=secret123`);
      expect(error).toBe(
        `MCP client for \`docs\` failed to start: POST http://127.0.0.1:${port}/mcp: HTTP 500 Internal Server Error: database is down`,
      );
    });

    it('the same for initialize (a pinned 2025 revision: no probe)', async () => {
      const error = await startupError(
        `http://127.0.0.1:${port}/mcp`,
        'protocol_version = "2025-11-25"\n',
      );
      expect(error).toBe(
        `MCP client for \`docs\` failed to start: POST http://127.0.0.1:${port}/mcp: HTTP 500 Internal Server Error: database is down`,
      );
    });
  });

  it('an unresolvable host: getaddrinfo ENOTFOUND', async () => {
    const error = await startupError('http://nohost.invalid/mcp');
    expect(error).toBe(
      'MCP client for `docs` failed to start: POST http://nohost.invalid/mcp: getaddrinfo ENOTFOUND nohost.invalid',
    );
  });
});

describe('a request to a live HTTP server that went away', () => {
  let server: ChildProcess;
  let port = '';
  beforeAll(async () => {
    server = spawn(NODE, [HTTP_SERVER, '--name', 'web'], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<string>((resolve) =>
      server.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
  });
  afterAll(() => {
    server.kill('SIGKILL');
  });

  it('names the request and its cause', async () => {
    const runtime = load(
      `[mcp_servers.web]\nurl = "http://127.0.0.1:${port}/mcp?token=secret123"\n`,
    );
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('web').connectionStatus).toBe('connected');
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
    const error = await session
      .callTool({ server: 'web', tool: 'echo', arguments: { message: 'hi' } })
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toBe(
      `tools/call to MCP server \`web\` failed: POST http://127.0.0.1:${port}/mcp: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
