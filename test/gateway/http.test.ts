/**
 * `mcprt serve --listen http://…`: the app-server's listener rules (loopback only, a bearer token
 * of at least 16 characters, 401 without it), DNS-rebinding checks, a generated 0600 token file
 * whose token is never printed, 2025 sessions, and one clear line for every way listening or
 * starting can fail.
 */

import { spawn, spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, makeHome, NODE, tempDir } from '../helpers/fixtures.js';
import type { HttpGateway } from './helpers.js';
import { CLI, httpClient, httpGateway, TOKEN, texts } from './helpers.js';

const home = makeHome(echoServer('mcp_servers.echo', 'echo'));

function serve(args: readonly string[]) {
  return spawnSync(NODE, [CLI, '--home', home, 'serve', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

/** POST `initialize` with an explicit Host header (fetch will not send a custom one). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(initialize);
  });
}

describe('the HTTP listener', () => {
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await httpGateway(home);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const post = (headers: Record<string, string>, url = gateway.url) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: initialize,
    });

  it('listens on loopback at /mcp and serves a client with the token', async () => {
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient(gateway.url, 'legacy');
    try {
      const result = await client.client.callTool({
        name: 'echo__echo',
        arguments: { message: 'over http' },
      });
      expect(texts(result)).toEqual(['echo: over http']);
    } finally {
      await client.close();
    }
  });

  it('answers 401 without the bearer token, or with a wrong one', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const response = await post(headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mcprt"');
    }
    await expect(httpClient(gateway.url, 'auto', 'not-the-token-at-all')).rejects.toThrow();
  });

  it('refuses another path, a foreign Host (DNS rebinding) and a foreign Origin', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(auth, gateway.url.replace('/mcp', '/other'))).status).toBe(404);
    expect(await statusWithHost(gateway.url, 'evil.example:80')).toBe(403);
    expect(await statusWithHost(gateway.url, new URL(gateway.url).host)).toBe(200);
    expect((await post({ ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(auth)).status).toBe(200);
  });

  it("keeps an idle client connection past Node's 5 s default, so a client's next request never races its close", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const once = () =>
      new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
        const req = request(gateway.url, { method: 'POST', agent }, (res) => {
          res.resume();
          res.once('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              keepAlive: String(res.headers['keep-alive']),
              reused: req.reusedSocket,
            }),
          );
        });
        req.once('error', reject);
        req.end(initialize);
      });
    try {
      const first = await once();
      expect(first).toEqual({ status: 401, keepAlive: 'timeout=65', reused: false });
      await new Promise((r) => setTimeout(r, 6_000));
      // The same socket carries the next request six seconds later.
      expect(await once()).toEqual({ status: 401, keepAlive: 'timeout=65', reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('gives 2025 clients sessions: an unknown session id is 404', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'no-such-session',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });
});

describe('starting the HTTP listener', () => {
  it('generates a 0600 token file in the home and never prints the token', async () => {
    const child = spawn(NODE, [CLI, '--home', home, 'serve', '--listen', 'http://127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += String(d);
        if (stderr.includes('listening on')) resolve();
      }),
    );
    const file = join(home, 'serve.token');
    expect(stderr).toContain(`(bearer token in ${file})`);
    const token = readFileSync(file, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(stderr).not.toContain(token);
    expect(stdout).not.toContain(token);
  });

  it('refuses a non-loopback address', () => {
    const r = serve(['--listen', 'http://0.0.0.0:0']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      'mcprt: refusing to listen on non-loopback host 0.0.0.0: plain HTTP is loopback-only; use https:// with --tls-cert and --tls-key and [serve.auth] mode = "oauth"',
    );
  });

  it('says in one line that the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = serve(['--listen', `http://127.0.0.1:${port}`]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n').at(-1)).toBe(
        `mcprt: cannot listen on http://127.0.0.1:${port}/mcp: the address is already in use (EADDRINUSE)`,
      );
    } finally {
      blocker.close();
    }
  });

  it('rejects a short token file, a bad --listen, and a token file without HTTP', () => {
    const short = join(tempDir(), 'short');
    writeFileSync(short, 'tooshort\n', { mode: 0o600 });
    let r = serve(['--listen', 'http://127.0.0.1:0', '--http-token-file', short]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      `mcprt: serve: the token in ${short} must be at least 16 characters`,
    );
    r = serve(['--listen', 'ws://127.0.0.1:0']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      "mcprt: serve: --listen must be stdio, http://127.0.0.1:PORT or https://HOST:PORT, got 'ws://127.0.0.1:0'",
    );
    r = serve(['--http-token-file', short]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--http-token-file only applies to --listen http://');
    r = serve(['--listen', 'http://127.0.0.1:0', '--http-token-file', join(tempDir(), 'missing')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read --http-token-file .*missing/);
  });

  it('refuses a token file other users can read', () => {
    const open = join(tempDir(), 'open-token');
    writeFileSync(open, `${TOKEN}\n`, { mode: 0o644 });
    const r = serve(['--listen', 'http://127.0.0.1:0', '--http-token-file', open]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `mcprt: refusing to use the --http-token-file ${open}: other users can read or write it (mode 0644); run \`chmod 600 ${open}\``,
    );
  });

  it('rejects an unknown environment before serving', () => {
    const r = serve(['--environment', 'nowhere']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('mcprt: unknown environment id `nowhere`');
  });
});
