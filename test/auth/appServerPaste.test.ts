// `mcpServer/oauth/login/submitRedirect` and `mcpServer/oauth/logout` over the real app-server
// (the built CLI) against real authorization servers (oidc-provider), two same-named HTTP servers
// in environments `a` and `b`. A login completes by pasting the URL the browser was redirected to
// (this test plays a browser that never reaches the loopback listener); a forged or foreign URL
// is refused and the login keeps waiting; an unknown login id is -32600. Logout removes only the
// selected scope's credentials, the running thread's registration then needs a login again, and
// the other scope stays connected. Also: the per-connection ownership of logins (in-process, two
// SDK clients on one app-server), and no token on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AppServer } from '@mcprt/app-server';
import { credentialStoreKey, Runtime } from '@mcprt/runtime';
import { McprtClient } from '@mcprt/sdk';

import { InProcessTransport } from '../../packages/cli/src/inProcess.js';
import { makeHome } from '../helpers/fixtures.js';
import type { Message, RawAppServer } from '../helpers/rpcClient.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { httpServerTable, readCredentialsFile, secretValues } from './helpers.js';
import { startTwoScopes, stopTwoScopes } from './twoScopes.js';
import type { TwoScopes } from './twoScopes.js';

type Params = Record<string, unknown>;

/** Poll an async condition until it holds. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('pasted redirects and logout (app-server)', () => {
  let asA: AuthServer;
  let asB: AuthServer;
  let rsA: ProtectedServer;
  let rsB: ProtectedServer;
  let home: string;
  let server: RawAppServer;
  let threadId: string;

  let setup: TwoScopes | undefined;

  beforeAll(async () => {
    setup = await startTwoScopes();
    ({ asA, asB, rsA, rsB, home, server, threadId } = setup);
  });

  afterAll(async () => {
    await stopTwoScopes(setup);
  });

  const statusUpdate =
    (env: string, status: string, after = 0) =>
    (m: Message) =>
      server.messages.indexOf(m) >= after &&
      m.method === 'mcpServer/startupStatus/updated' &&
      (m.params as Params)['environmentId'] === env &&
      (m.params as Params)['status'] === status;
  const completion = (loginId: string) => (m: Message) =>
    m.method === 'mcpServer/oauthLogin/completed' && (m.params as Params)['loginId'] === loginId;

  async function startLogin(environmentId: string) {
    const result = await server.call<{ authorizationUrl: string; loginId: string }>(
      'mcpServer/oauth/login',
      { name: 'shared', environmentId, threadId },
    );
    const url = new URL(result.authorizationUrl);
    return {
      ...result,
      redirectUri: url.searchParams.get('redirect_uri')!,
      state: url.searchParams.get('state')!,
    };
  }

  const submit = (loginId: string, redirectUrl: string) =>
    server.call<{ accepted: boolean }>('mcpServer/oauth/login/submitRedirect', {
      loginId,
      redirectUrl,
    });

  async function authStatuses(): Promise<Record<string, [unknown, unknown]>> {
    const list = await server.call<{ data: Params[] }>('mcpServerStatus/list', { threadId });
    return Object.fromEntries(
      list.data
        .filter((s) => s['name'] === 'shared')
        .map((s) => [String(s['environmentId']), [s['runtimeStatus'], s['authStatus']]]),
    );
  }

  it('refuses forged redirects, keeps the login waiting, and completes with the pasted one', async () => {
    await server.waitFor(statusUpdate('a', 'failed'));
    await server.waitFor(statusUpdate('b', 'failed'));
    const login = await startLogin('a');
    // The browser is elsewhere: it is redirected, but nothing reaches the loopback listener.
    const redirected = await authorize(login.authorizationUrl, login.redirectUri);
    expect(new URL(redirected).searchParams.get('state')).toBe(login.state);

    const forged = new URL(redirected);
    forged.searchParams.set('state', 'someone-elses-state');
    expect(await submit(login.loginId, forged.href)).toEqual({ accepted: false });
    const noCode = new URL(redirected);
    noCode.searchParams.delete('code');
    expect(await submit(login.loginId, noCode.href)).toEqual({ accepted: false });
    expect(await submit(login.loginId, 'not a URL at all')).toEqual({ accepted: false });
    expect(server.messages.some(completion(login.loginId))).toBe(false);
    expect(asA.grants['authorization_code']).toBeUndefined();

    const before = server.messages.length;
    expect(await submit(login.loginId, `  ${redirected}\n`)).toEqual({ accepted: true });
    const completed = await server.waitFor(completion(login.loginId));
    expect(completed.params).toEqual({
      name: 'shared',
      environmentId: 'a',
      threadId,
      loginId: login.loginId,
      success: true,
    });
    await server.waitFor(statusUpdate('a', 'ready', before));
    expect(asA.grants['authorization_code']).toBe(1);
    expect(asB.grants['authorization_code']).toBeUndefined();
    expect(await authStatuses()).toEqual({
      a: ['connected', 'oAuth'],
      b: ['authenticationRequired', 'notLoggedIn'],
    });

    // An ended login is forgotten: its id is no longer known.
    const late = await server.request('mcpServer/oauth/login/submitRedirect', {
      loginId: login.loginId,
      redirectUrl: redirected,
    });
    expect(late.error).toMatchObject({
      code: -32600,
      message: `unknown OAuth login id \`${login.loginId}\`: no login with that id is pending on this connection`,
    });
  });

  it('accepts a pasted provider error, which ends the login as failed', async () => {
    const login = await startLogin('b');
    const denied = `${login.redirectUri}?error=access_denied&error_description=the+user+said+no&state=${login.state}`;
    expect(await submit(login.loginId, denied)).toEqual({ accepted: true });
    const completed = await server.waitFor(completion(login.loginId));
    expect(completed.params).toMatchObject({
      environmentId: 'b',
      success: false,
      error: 'OAuth provider returned `access_denied`: the user said no',
    });
    expect(Object.keys(readCredentialsFile(home))).toEqual([
      credentialStoreKey({ environmentId: 'a', name: 'shared' }, rsA.url),
    ]);
  });

  it('names an unknown login id, and refuses params without the redirect URL', async () => {
    const unknown = await server.request('mcpServer/oauth/login/submitRedirect', {
      loginId: 'no-such-login',
      redirectUrl: 'http://127.0.0.1:1/callback?code=x&state=y',
    });
    expect(unknown.error).toMatchObject({
      code: -32600,
      message:
        'unknown OAuth login id `no-such-login`: no login with that id is pending on this connection',
    });
    const missing = await server.request('mcpServer/oauth/login/submitRedirect', {
      loginId: 'no-such-login',
    });
    expect(missing.error).toMatchObject({
      code: -32600,
      message: 'Invalid request: missing field `redirectUrl`',
    });
  });

  it('logs out of one scope only; the thread then needs a login there', async () => {
    // Log in to b as well (pasted), so that both scopes hold credentials.
    const login = await startLogin('b');
    const redirected = await authorize(login.authorizationUrl, login.redirectUri);
    expect(await submit(login.loginId, redirected)).toEqual({ accepted: true });
    expect((await server.waitFor(completion(login.loginId))).params).toMatchObject({
      success: true,
    });
    await eventually(
      async () => (await authStatuses())['b']?.[0] === 'connected',
      'shared@b to connect',
    );
    const keyA = credentialStoreKey({ environmentId: 'a', name: 'shared' }, rsA.url);
    const keyB = credentialStoreKey({ environmentId: 'b', name: 'shared' }, rsB.url);
    expect(Object.keys(readCredentialsFile(home)).sort()).toEqual([keyA, keyB].sort());
    const tokenB = readCredentialsFile(home)[keyB]!['access_token'];

    const before = server.messages.length;
    expect(
      await server.call('mcpServer/oauth/logout', { name: 'shared', environmentId: 'a' }),
    ).toEqual({ removed: true });
    expect(Object.keys(readCredentialsFile(home))).toEqual([keyB]);
    expect(readCredentialsFile(home)[keyB]!['access_token']).toBe(tokenB);
    const failed = await server.waitFor(statusUpdate('a', 'failed', before));
    expect((failed.params as Params)['error']).toContain(
      'The shared@a MCP server is not logged in. Run `mcprt mcp login shared --environment a`.',
    );
    expect(await authStatuses()).toEqual({
      a: ['authenticationRequired', 'notLoggedIn'],
      b: ['connected', 'oAuth'],
    });
    expect(
      await server.call('mcpServer/oauth/logout', { name: 'shared', environmentId: 'a' }),
    ).toEqual({ removed: false });
  });

  it("answers Codex's logout errors and loses nothing", async () => {
    const cases: [Params, string][] = [
      [{ name: 'nope' }, "No MCP server named 'nope' found in configuration."],
      [
        { name: 'nope', environmentId: 'a' },
        "No MCP server named 'nope' found in environment `a`.",
      ],
      [{ name: 'local-tool' }, 'OAuth logout is only supported for streamable_http transports.'],
      [{ name: 'shared', environmentId: 'zz' }, 'unknown environment id `zz`'],
    ];
    for (const [params, message] of cases) {
      const reply = await server.request('mcpServer/oauth/logout', params);
      expect(reply.error, JSON.stringify(params)).toEqual({ code: -32600, message });
    }
    const missing = await server.request('mcpServer/oauth/logout', { environmentId: 'a' });
    expect(missing.error).toMatchObject({
      code: -32600,
      message: 'Invalid request: missing field `name`',
    });
    expect(Object.keys(readCredentialsFile(home))).toEqual([
      credentialStoreKey({ environmentId: 'b', name: 'shared' }, rsB.url),
    ]);
    expect((await authStatuses())['b']).toEqual(['connected', 'oAuth']);
  });

  it('never puts a token on the wire or in its log', () => {
    const wire = JSON.stringify(server.messages) + server.stderr.join('');
    const secrets = [...secretValues(home), ...rsA.acceptedTokens, ...rsB.acceptedTokens];
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const secret of secrets) expect(wire).not.toContain(secret);
  });
});

describe('pending logins belong to the connection that started them', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let appServer: AppServer;
  let home: string;

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer(as, { name: 'docs' });
    home = makeHome(
      ['mcp_oauth_credentials_store = "file"', httpServerTable('mcp_servers.docs', rs.url)].join(
        '\n',
      ),
    );
    appServer = new AppServer({ runtime: Runtime.load({ home }), home, log: () => {} });
  });

  afterAll(async () => {
    await appServer?.close();
    await Promise.all([rs?.stop(), as?.stop()]);
  });

  it('another connection cannot complete it; closing its connection cancels it', async () => {
    const owner = await McprtClient.create(new InProcessTransport(appServer));
    const other = await McprtClient.create(new InProcessTransport(appServer));
    const login = await owner.request('mcpServer/oauth/login', { name: 'docs' });
    const url = new URL(login.authorizationUrl);
    const redirected = await authorize(
      login.authorizationUrl,
      url.searchParams.get('redirect_uri')!,
    );
    await expect(
      other.request('mcpServer/oauth/login/submitRedirect', {
        loginId: login.loginId!,
        redirectUrl: redirected,
      }),
    ).rejects.toMatchObject({
      code: -32600,
      message: `unknown OAuth login id \`${login.loginId}\`: no login with that id is pending on this connection`,
    });

    await owner.close();
    // Cancelled: its loopback listener closes (probed without a code, so nothing is delivered),
    // and then even the browser's own redirect cannot land.
    const redirectUri = url.searchParams.get('redirect_uri')!;
    await eventually(
      () =>
        fetch(redirectUri).then(
          async (res) => (await res.text(), false),
          () => true,
        ),
      'the loopback listener to close',
    );
    await expect(fetch(redirected)).rejects.toThrow();
    expect(as.grants['authorization_code']).toBeUndefined();
    expect(() => readCredentialsFile(home)).toThrow(/ENOENT/);
    await other.close();
  });
});
