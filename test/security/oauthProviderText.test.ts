/**
 * Finding 6 of issue #33 (part d): what a hostile authorization server writes into its errors
 * reaches the person running `mcprt mcp login` (the built CLI). The server here is a real one of
 * our own on 127.0.0.1 — an MCP endpoint that asks for OAuth, its protected-resource and
 * authorization-server metadata, dynamic registration — whose `error_description` (in the
 * redirect, or in the token endpoint's answer) carries an OSC 52 clipboard write, a screen clear,
 * a bidi override, a forged `mcprt:` line and up to 100,000 more characters, and whose `error_uri`
 * names a page to lure the user to. The CLI must print one clear line: no escape, no bidi
 * control, no forged line, clipped, the `error_uri` never shown.
 */

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, q } from '../helpers/fixtures.js';
import { CliProcess } from '../auth/helpers.js';

const LURE = 'https://lure.example/steal-your-login';
/** Escapes, a bidi override, a forged line, then `filler` more characters. */
function hostile(filler: number): string {
  return (
    '\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[H\u202egnp.exe' +
    '\nmcprt: logged in to MCP server `docs`\r\n' +
    'A'.repeat(filler)
  );
}

interface HostileServer {
  readonly url: string;
  /** Where `/authorize` sends the browser: an error redirect, or a code the token step refuses. */
  mode: 'redirect' | 'token';
  stop(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function startHostileServer(): Promise<HostileServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: HostileServer = {
    url: `${base}/mcp`,
    mode: 'redirect',
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      const body = await bodyOf(req);
      if (url.pathname === '/mcp') {
        res
          .writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end();
      } else if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
        json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
      } else if (url.pathname.startsWith('/.well-known/oauth-authorization-server')) {
        json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      } else if (url.pathname === '/register') {
        json(res, 201, { ...(JSON.parse(body) as object), client_id: 'hostile-client' });
      } else if (url.pathname === '/authorize') {
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('state', url.searchParams.get('state')!);
        back.searchParams.set('iss', base);
        if (state.mode === 'redirect') {
          // A URL carries some 8 kB (HTTP header limits): 6,000 characters more than shown.
          back.searchParams.set('error', `access_denied\n${hostile(0)}`);
          back.searchParams.set('error_description', hostile(6_000));
          back.searchParams.set('error_uri', LURE);
        } else {
          back.searchParams.set('code', 'a-code');
        }
        res.writeHead(302, { location: back.href }).end();
      } else if (url.pathname === '/token') {
        json(res, 400, {
          error: 'invalid_request',
          error_description: hostile(100_000),
          error_uri: LURE,
        });
      } else {
        res.writeHead(404).end();
      }
    })();
  });
  return state;
}

/** Run `mcprt mcp login docs --no-browser`, follow the authorization URL, paste the redirect. */
async function loginAgainst(home: string): Promise<{ code: number | null; stderr: string }> {
  const cli = new CliProcess(home, ['mcp', 'login', 'docs', '--no-browser']);
  const [url] = await cli.waitForOutput(/^http\S+$/m);
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  expect(location).toBeTruthy();
  cli.write(`${location}\n`);
  const code = await cli.exited;
  return { code, stderr: cli.stderr };
}

/** What the person sees of a hostile error: checked the same way for both routes. */
function expectOneCleanLine(stderr: string, start: string): void {
  const lines = stderr.split('\n').filter((l) => l.startsWith('mcprt:'));
  expect(lines).toHaveLength(1);
  const line = lines[0]!;
  expect(line.startsWith(start)).toBe(true);
  expect(line).toContain('…');
  expect(line.length).toBeLessThan(800);
  // No escape (ESC, or its C1 forms), no bidi control, no forged line, no lure.
  // eslint-disable-next-line no-control-regex
  expect(stderr).not.toMatch(/[\u001b\u0007\u009b\u009d]/);
  expect(stderr).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  expect(stderr).not.toMatch(/^mcprt: logged in/m);
  expect(stderr).not.toContain(LURE);
  expect(stderr.length).toBeLessThan(2_000);
}

describe('mcprt mcp login against a hostile authorization server', () => {
  let hostile: HostileServer;
  let home: string;

  beforeAll(async () => {
    hostile = await startHostileServer();
    home = makeHome(
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.docs]\nurl = ${q(hostile.url)}\n`,
    );
  });
  afterAll(async () => {
    await hostile?.stop();
  });

  it('prints the description of an error redirect as one clean, clipped line', async () => {
    hostile.mode = 'redirect';
    const run = await loginAgainst(home);
    expect(run.code).toBe(1);
    expectOneCleanLine(run.stderr, 'mcprt: OAuth provider returned `access_denied ');
  });

  it('prints the description of a token endpoint error as one clean, clipped line', async () => {
    hostile.mode = 'token';
    const run = await loginAgainst(home);
    expect(run.code).toBe(1);
    expectOneCleanLine(run.stderr, "mcprt: failed to login to MCP server 'docs': ");
  });
});
