// Token lifetime against a real authorization server (oidc-provider) and a protected MCP server:
// a login through the library reaches the running session (the registration reconnects by
// itself); an access token past its expiry (the runtime's clock seam moves on) is refreshed
// silently, once for concurrent calls; with the authorization server down the call fails with a
// clear error and the stored credentials are untouched; a token the server revokes is refreshed
// and the call retried once. Nothing captured (errors, status, history) contains a token.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { credentialStoreKey, Runtime } from '@mcprt/runtime';
import type { Session } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, q, waitFor } from '../helpers/fixtures.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { readCredentialsFile, secretValues } from './helpers.js';

const HOUR = 3_600_000;

describe('OAuth refresh (library, real authorization server)', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let home: string;
  let runtime: Runtime;
  let session: Session;
  let clock = Date.now();
  const captured: string[] = [];
  let key: string;

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer(as, { name: 'docs' });
    home = makeHome(
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.docs]\nurl = ${q(rs.url)}\nstartup_timeout_sec = 10\n`,
    );
    key = credentialStoreKey({ environmentId: null, name: 'docs' }, rs.url);
    runtime = Runtime.load({ home, oauth: { now: () => clock } });
    session = runtime.startSession();
  });

  afterAll(async () => {
    await runtime?.close();
    await rs?.stop();
    await as?.stop();
  });

  const whoami = () => session.callTool({ server: 'docs', tool: 'whoami' });
  const text = (r: Awaited<ReturnType<typeof whoami>>) =>
    (r.content as { type: string; text: string }[])[0]!.text;

  it('reaches the running session after a login, without a restart', async () => {
    await session.ready();
    expect(session.status('docs')).toMatchObject({
      connectionStatus: 'authenticationRequired',
      authStatus: 'notLoggedIn',
    });
    const pending = await runtime.oauthLogin({ server: 'docs' });
    expect(new URL(pending.authorizationUrl).searchParams.get('resource')).toBe(rs.url);
    expect(new URL(pending.authorizationUrl).searchParams.get('code_challenge_method')).toBe(
      'S256',
    );
    await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: true });
    await pending.completed;
    await waitFor(
      () => session.status('docs').connectionStatus === 'connected',
      10_000,
      'reconnect',
    );
    expect(session.status('docs').authStatus).toBe('oAuth');
    expect(text(await whoami())).toBe('docs: ok');
    expect(as.grants['refresh_token']).toBeUndefined();
    expect(as.resources).toContain(rs.url);
  });

  it('refreshes an expired access token silently, once for concurrent calls', async () => {
    const before = readCredentialsFile(home)[key]!;
    clock += 2 * HOUR;
    const results = await Promise.all([whoami(), whoami(), whoami()]);
    expect(results.map(text)).toEqual(['docs: ok', 'docs: ok', 'docs: ok']);
    expect(as.grants['refresh_token']).toBe(1);
    const after = readCredentialsFile(home)[key]!;
    expect(after['access_token']).not.toBe(before['access_token']);
    expect(after['expires_at']).toBeGreaterThan(clock);
    expect(rs.acceptedTokens).toContain(after['access_token']);
  });

  it('fails clearly and keeps the credentials when the authorization server is down', async () => {
    await as.stop();
    clock += 2 * HOUR;
    const stored = readFileSync(join(home, '.credentials.json'), 'utf8');
    const error = await whoami().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /^tools\/call to MCP server `docs` failed: failed to refresh OAuth tokens for server docs: fetch failed \((other side closed|connect ECONNREFUSED [0-9.:]+)\) \(the stored credentials were kept\)$/,
    );
    captured.push(error!.message);
    expect(readFileSync(join(home, '.credentials.json'), 'utf8')).toBe(stored);
    expect(session.status('docs').authStatus).toBe('oAuth');
    captured.push(JSON.stringify(session.listStatus()));

    await as.start();
    expect(text(await whoami())).toBe('docs: ok');
    expect(as.grants['refresh_token']).toBe(2);
  });

  it('refreshes and retries once when the server rejects a revoked token', async () => {
    const current = readCredentialsFile(home)[key]!['access_token'] as string;
    await as.revokeAccessToken(current);
    expect(text(await whoami())).toBe('docs: ok');
    expect(as.grants['refresh_token']).toBe(3);
    expect(readCredentialsFile(home)[key]!['access_token']).not.toBe(current);
  });

  it('asks for a new login when the refresh token is refused, keeping the entry until then', async () => {
    const record = readCredentialsFile(home)[key]!;
    const client = record['client'] as Record<string, string>;
    const discovery = (await (
      await fetch(`${as.issuer}/.well-known/openid-configuration`)
    ).json()) as { revocation_endpoint: string };
    const revoked = await fetch(discovery.revocation_endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client['client_id']}:${client['client_secret']}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: record['refresh_token'] as string }),
    });
    expect(revoked.status).toBe(200);
    clock += 2 * HOUR;
    const stored = readFileSync(join(home, '.credentials.json'), 'utf8');
    const error = await whoami().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      'tools/call to MCP server `docs` failed: The OAuth login of MCP server `docs` is no longer valid (the authorization server answered `invalid_grant` to a refresh). Run `mcprt mcp login docs`.',
    );
    captured.push(error!.message);
    expect(readFileSync(join(home, '.credentials.json'), 'utf8')).toBe(stored);
    // The running session restarts the registration, which now says a login is needed.
    await waitFor(
      () => session.status('docs').connectionStatus === 'authenticationRequired',
      10_000,
      'authenticationRequired',
    );
    expect(session.status('docs').error).toContain('Run `mcprt mcp login docs`.');
    captured.push(JSON.stringify(session.listStatus()));

    const pending = await runtime.oauthLogin({ server: 'docs' });
    await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: true });
    await pending.completed;
    await waitFor(() => session.status('docs').connectionStatus === 'connected', 10_000, 'login');
    expect(text(await whoami())).toBe('docs: ok');
  });

  it('never shows a token value in errors, status or history', () => {
    const history = runtime.history!.list({ limit: 100 });
    expect(history.data.length).toBeGreaterThanOrEqual(5);
    captured.push(JSON.stringify(history), JSON.stringify(session.listStatus()));
    const everything = captured.join('\n');
    const secrets = [...secretValues(home), ...rs.acceptedTokens];
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
