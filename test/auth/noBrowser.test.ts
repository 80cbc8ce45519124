// `mcprt mcp login <name> --no-browser`: the built CLI prints the authorization URL and reads the
// redirect URL from stdin, so the browser can be on another machine. This test plays that remote
// browser: it follows the URL through the real authorization server (oidc-provider) but never
// loads the redirect — it pastes it. Text that is not this login's redirect is refused and the
// CLI keeps waiting; explicit `--scopes` are what is requested; the stored file is 0600.
import { statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, q } from '../helpers/fixtures.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { CliProcess, readCredentialsFile, runCli, secretValues } from './helpers.js';

describe('mcprt mcp login --no-browser', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let home: string;

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer(as, { name: 'docs' });
    home = makeHome(
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.docs]\nurl = ${q(rs.url)}\n`,
    );
  });

  afterAll(async () => {
    await rs?.stop();
    await as?.stop();
  });

  it('completes with the redirect URL pasted on stdin', async () => {
    const cli = new CliProcess(home, [
      'mcp',
      'login',
      'docs',
      '--no-browser',
      '--scopes',
      'mcp:tools,offline_access',
    ]);
    const [url] = await cli.waitForOutput(/^http\S+$/m);
    await cli.waitForOutput(/paste the URL your browser was redirected to/);
    const params = new URL(url).searchParams;
    expect(params.get('scope')).toBe('mcp:tools offline_access');
    const redirect = await authorize(url, params.get('redirect_uri')!, { deliver: false });
    expect(new URL(redirect).searchParams.get('code')).toBeTruthy();

    // Not this login's redirect: refused, and the CLI keeps waiting.
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'not-the-state');
    cli.write(`${forged.href}\n`);
    await new Promise((r) => setTimeout(r, 300));
    expect(cli.stderr).toContain('That is not the redirect URL of this login');
    expect(as.grants['authorization_code']).toBeUndefined();

    cli.write(`${redirect}\n`);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toContain("Successfully logged in to MCP server 'docs'.");
    expect(as.grants['authorization_code']).toBe(1);
    expect(statSync(join(home, '.credentials.json')).mode & 0o777).toBe(0o600);
    // What the server granted for the resource (offline_access only yields the refresh token).
    expect(Object.values(readCredentialsFile(home))[0]!['scopes']).toEqual(['mcp:tools']);
    expect(Object.values(readCredentialsFile(home))[0]!['refresh_token']).toEqual(
      expect.any(String),
    );

    const call = await runCli(home, ['call', 'docs', 'whoami']);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('docs: ok');
    const everything = [cli.stdout, cli.stderr, call.stdout, call.stderr].join('\n');
    for (const secret of secretValues(home)) expect(everything).not.toContain(secret);
  });

  it('ends with the provider error when authorization is denied', async () => {
    const cli = new CliProcess(home, ['mcp', 'login', 'docs', '--no-browser']);
    const [url] = await cli.waitForOutput(/^http\S+$/m);
    const params = new URL(url).searchParams;
    const denied = new URL(params.get('redirect_uri')!);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('error_description', 'the user said no');
    denied.searchParams.set('state', params.get('state')!);
    cli.write(`${denied.href}\n`);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr).toContain(
      'mcprt: OAuth provider returned `access_denied`: the user said no',
    );
  });

  it('listens on mcp_oauth_callback_port when it is set', async () => {
    const port = await freePort();
    const portHome = makeHome(
      `mcp_oauth_credentials_store = "file"\nmcp_oauth_callback_port = ${port}\n[mcp_servers.docs]\nurl = ${q(rs.url)}\n`,
    );
    const cli = new CliProcess(portHome, ['mcp', 'login', 'docs', '--no-browser']);
    const [url] = await cli.waitForOutput(/^http\S+$/m);
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`);
    await authorize(url, `http://127.0.0.1:${port}/callback`, { deliver: true });
    expect(await cli.exited).toBe(0);
  });

  it('refuses an unknown server, for login and logout', async () => {
    const unknown = await runCli(home, ['mcp', 'login', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No MCP server named 'nope' found.");
    const logout = await runCli(home, ['mcp', 'logout', 'nope']);
    expect(logout.stderr).toContain("No MCP server named 'nope' found in configuration.");
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
