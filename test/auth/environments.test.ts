// OAuth per registration scope, end to end: two HTTP servers named `shared` in environments `a`
// and `b`, each behind its own real authorization server (oidc-provider). `mcprt mcp login shared
// --environment a` (the built CLI; this test plays the browser and lands on its loopback
// callback) authorizes only `shared@a`: `shared@b` stays `notLoggedIn`, the two are stored under
// separate keys in a 0600 credentials file, and no token value appears in anything captured.
import { statSync } from 'node:fs';
import { join } from 'node:path';

import { credentialStoreKey } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome } from '../helpers/fixtures.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import {
  CliProcess,
  directEnvironment,
  httpServerTable,
  readCredentialsFile,
  runCli,
  secretValues,
} from './helpers.js';

interface StatusEntry {
  name: string;
  environmentId: string | null;
  connectionStatus: string;
  authStatus: string;
  error: string | null;
  tools: { name: string }[];
}

describe('OAuth login per registration scope (CLI, two environments)', () => {
  let asA: AuthServer;
  let asB: AuthServer;
  let rsA: ProtectedServer;
  let rsB: ProtectedServer;
  let home: string;
  const captured: string[] = [];

  beforeAll(async () => {
    asA = await startAuthServer();
    asB = await startAuthServer();
    rsA = await startProtectedServer(asA, { name: 'shared-a' });
    rsB = await startProtectedServer(asB, { name: 'shared-b' });
    home = makeHome(
      [
        'mcp_oauth_credentials_store = "file"',
        directEnvironment('a'),
        directEnvironment('b'),
        httpServerTable('environments.a.mcp_servers.shared', rsA.url),
        httpServerTable('environments.b.mcp_servers.shared', rsB.url),
      ].join('\n'),
    );
  });

  afterAll(async () => {
    await Promise.all([rsA?.stop(), rsB?.stop(), asA?.stop(), asB?.stop()]);
  });

  async function status(): Promise<StatusEntry[]> {
    const run = await runCli(home, ['status', '--json']);
    captured.push(run.stdout, run.stderr);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as StatusEntry[];
  }

  async function login(environment: string): Promise<CliProcess> {
    const cli = new CliProcess(home, ['mcp', 'login', 'shared', '--environment', environment]);
    const [url] = await cli.waitForOutput(/^http\S+$/m);
    const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
    await authorize(url, redirectUri, { deliver: true });
    expect(await cli.exited).toBe(0);
    captured.push(cli.stdout, cli.stderr);
    return cli;
  }

  it('starts with both registrations needing a login, with the right command', async () => {
    const entries = await status();
    for (const env of ['a', 'b']) {
      const entry = entries.find((e) => e.environmentId === env)!;
      expect(entry.connectionStatus).toBe('authenticationRequired');
      expect(entry.authStatus).toBe('notLoggedIn');
      expect(entry.error).toBe(
        `The shared@${env} MCP server is not logged in. Run \`mcprt mcp login shared --environment ${env}\`.`,
      );
    }
  });

  it('logs in to `shared --environment a` only', async () => {
    const cli = await login('a');
    expect(cli.stdout).toContain("Successfully logged in to MCP server 'shared'.");
    expect(asA.grants['authorization_code']).toBe(1);
    expect(asB.grants['authorization_code']).toBeUndefined();

    const entries = await status();
    const a = entries.find((e) => e.environmentId === 'a')!;
    const b = entries.find((e) => e.environmentId === 'b')!;
    expect(a).toMatchObject({ connectionStatus: 'connected', authStatus: 'oAuth' });
    expect(a.tools.map((t) => t.name)).toEqual(['whoami']);
    expect(b).toMatchObject({
      connectionStatus: 'authenticationRequired',
      authStatus: 'notLoggedIn',
    });

    const stored = readCredentialsFile(home);
    expect(Object.keys(stored)).toEqual([
      credentialStoreKey({ environmentId: 'a', name: 'shared' }, rsA.url),
    ]);
    expect(statSync(join(home, '.credentials.json')).mode & 0o777).toBe(0o600);

    const call = await runCli(home, ['call', 'shared', 'whoami', '--environment', 'a']);
    captured.push(call.stdout, call.stderr);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('shared-a: ok');
    expect(rsA.acceptedTokens).toHaveLength(1);
  });

  it('keeps the two environments under separate keys after logging in to b', async () => {
    await login('b');
    const stored = readCredentialsFile(home);
    const keyA = credentialStoreKey({ environmentId: 'a', name: 'shared' }, rsA.url);
    const keyB = credentialStoreKey({ environmentId: 'b', name: 'shared' }, rsB.url);
    expect(Object.keys(stored).sort()).toEqual([keyA, keyB].sort());
    expect(stored[keyA]!['access_token']).not.toBe(stored[keyB]!['access_token']);
    expect(stored[keyA]!['environment_id']).toBe('a');
    expect(statSync(join(home, '.credentials.json')).mode & 0o777).toBe(0o600);
    const entries = await status();
    expect(entries.map((e) => [e.environmentId, e.connectionStatus, e.authStatus])).toEqual([
      ['a', 'connected', 'oAuth'],
      ['b', 'connected', 'oAuth'],
    ]);
  });

  it('logs out of one environment only', async () => {
    const out = await runCli(home, ['mcp', 'logout', 'shared', '--environment', 'b']);
    captured.push(out.stdout, out.stderr);
    expect(out).toMatchObject({ code: 0 });
    expect(out.stdout).toContain("Removed OAuth credentials for 'shared'.");
    const again = await runCli(home, ['mcp', 'logout', 'shared', '--environment', 'b']);
    expect(again.stdout).toContain("No OAuth credentials stored for 'shared'.");
    expect(Object.keys(readCredentialsFile(home))).toEqual([
      credentialStoreKey({ environmentId: 'a', name: 'shared' }, rsA.url),
    ]);
    const entries = await status();
    expect(entries.find((e) => e.environmentId === 'b')!.authStatus).toBe('notLoggedIn');
  });

  it('never shows a token value in any captured output', () => {
    const secrets = [...secretValues(home), ...rsA.acceptedTokens, ...rsB.acceptedTokens];
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    const everything = captured.join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
