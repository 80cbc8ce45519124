/**
 * Finding 6 of issue #33 (part a): the loopback listener that `mcprt mcp login` opens for the
 * OAuth redirect, attacked over real sockets during real logins (a real authorization server,
 * oidc-provider; the runtime in this process, and one built CLI process). The listener binds
 * 127.0.0.1 only (::1 only when the callback URL names `[::1]`); a redirect without this login's
 * `state` is refused and its code never redeemed; it closes after the one callback it accepts, on
 * the provider's error and on its timeout; other paths get 404 and the login goes on; the pages it answers are plain text that never serves a
 * forged query's markup.
 */

import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

import { Runtime } from '@mcprt/runtime';
import type { PendingOAuthLogin } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, q } from '../helpers/fixtures.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { CliProcess } from '../auth/helpers.js';

/** `connected`, or the error code of a TCP connect to host:port. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(3_000, () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<false>((r) => setTimeout(() => r(false), ms)),
  ]);
  return settled;
}

async function get(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    nosniff: res.headers.get('x-content-type-options'),
    text: await res.text(),
  };
}

describe('OAuth callback listener under attack', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let home: string;
  let runtime: Runtime;

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer(as, { name: 'docs' });
    home = makeHome(
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.docs]\nurl = ${q(rs.url)}\nstartup_timeout_sec = 10\n`,
    );
    runtime = Runtime.load({ home });
  });

  afterAll(async () => {
    await runtime?.close();
    await rs?.stop();
    await as?.stop();
  });

  const codes = () => as.grants['authorization_code'] ?? 0;
  const portOf = (pending: PendingOAuthLogin) => Number(new URL(pending.redirectUri).port);

  it('binds the callback port on 127.0.0.1 only, refusing the other addresses of this machine', async () => {
    const pending = await runtime.oauthLogin({ server: 'docs' });
    try {
      const redirect = new URL(pending.redirectUri);
      expect(redirect.hostname).toBe('127.0.0.1');
      const port = portOf(pending);
      expect(await tryConnect('127.0.0.1', port)).toBe('connected');
      const others = Object.values(networkInterfaces())
        .flat()
        .filter((a) => a !== undefined && !a.internal)
        .map((a) => a!.address);
      for (const address of [...others, '::1'])
        expect([address, await tryConnect(address, port)]).not.toEqual([address, 'connected']);
    } finally {
      pending.cancel();
      await pending.completed.catch(() => undefined);
    }
  });

  it('binds ::1 only when the callback URL names [::1], and completes the login there', async () => {
    // This machine must have an IPv6 loopback for the test to mean anything: check it first.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(0, '::1', resolve);
    });
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const v6home = makeHome(
      `mcp_oauth_credentials_store = "file"\nmcp_oauth_callback_url = "http://[::1]:${port}/v6cb"\n` +
        `[mcp_servers.docs]\nurl = ${q(rs.url)}\nstartup_timeout_sec = 10\n`,
    );
    const v6 = Runtime.load({ home: v6home });
    try {
      const pending = await v6.oauthLogin({ server: 'docs' });
      expect(pending.redirectUri).toBe(`http://[::1]:${port}/v6cb`);
      expect(await tryConnect('::1', port)).toBe('connected');
      expect(await tryConnect('127.0.0.1', port)).toBe('ECONNREFUSED');
      await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: true });
      await pending.completed;
      expect(await tryConnect('::1', port)).toBe('ECONNREFUSED');
    } finally {
      await v6.close();
    }
  });

  it('refuses a callback with a wrong or missing state and never redeems its code', async () => {
    const before = codes();
    const pending = await runtime.oauthLogin({ server: 'docs' });
    const redirect = new URL(
      await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: false }),
    );
    expect(redirect.searchParams.get('code')).toBeTruthy();
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'not-the-state');
    const missing = new URL(redirect);
    missing.searchParams.delete('state');
    for (const attempt of [forged, missing])
      expect(await get(attempt.href)).toMatchObject({
        status: 400,
        text: 'Invalid OAuth callback',
      });
    expect(await settlesWithin(pending.completed, 500)).toBe(false);
    expect(codes()).toBe(before);
    // The real redirect still completes the login it belongs to.
    expect((await get(redirect.href)).status).toBe(200);
    await pending.completed;
    expect(codes()).toBe(before + 1);
  });

  it('closes the listener after one successful callback', async () => {
    const pending = await runtime.oauthLogin({ server: 'docs' });
    const port = portOf(pending);
    const redirect = await authorize(pending.authorizationUrl, pending.redirectUri, {
      deliver: false,
    });
    expect((await get(redirect)).status).toBe(200);
    await pending.completed;
    expect(await tryConnect('127.0.0.1', port)).toBe('ECONNREFUSED');
    await expect(fetch(redirect)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
    });
  });

  it('ends the login with a clear error on error=access denied', async () => {
    const before = codes();
    const pending = await runtime.oauthLogin({ server: 'docs' });
    const denied = new URL(pending.redirectUri);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('error_description', 'the user said no');
    denied.searchParams.set('state', new URL(pending.authorizationUrl).searchParams.get('state')!);
    expect(await get(denied.href)).toMatchObject({
      status: 400,
      text: 'OAuth provider returned `access_denied`: the user said no',
    });
    await expect(pending.completed).rejects.toThrow(
      'OAuth provider returned `access_denied`: the user said no',
    );
    expect(await tryConnect('127.0.0.1', portOf(pending))).toBe('ECONNREFUSED');
    expect(codes()).toBe(before);
  });

  it('closes the listener when the login times out', async () => {
    const pending = await runtime.oauthLogin({ server: 'docs', timeoutMs: 300 });
    const port = portOf(pending);
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    await expect(pending.completed).rejects.toThrow('timed out waiting for OAuth callback');
    expect(await tryConnect('127.0.0.1', port)).toBe('ECONNREFUSED');
  });

  it('times out a real mcprt mcp login process given --timeout-sec', async () => {
    const cli = new CliProcess(home, [
      'mcp',
      'login',
      'docs',
      '--no-browser',
      '--timeout-sec',
      '1',
    ]);
    await cli.waitForOutput(/^http\S+$/m);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr).toContain('timed out waiting for OAuth callback');
  });

  it('answers 404 on another path and keeps the login waiting', async () => {
    const pending = await runtime.oauthLogin({ server: 'docs' });
    const redirect = new URL(
      await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: false }),
    );
    const elsewhere = new URL(redirect);
    elsewhere.pathname = '/not-the-callback';
    const elsewhereError = new URL(elsewhere);
    elsewhereError.search = `?error=access_denied&state=${redirect.searchParams.get('state')}`;
    for (const attempt of [elsewhere, elsewhereError])
      expect(await get(attempt.href)).toMatchObject({ status: 404, text: 'Not found' });
    expect(await settlesWithin(pending.completed, 300)).toBe(false);
    expect((await get(redirect.href)).status).toBe(200);
    await pending.completed;
  });

  it('never serves attacker query text as markup in its pages', async () => {
    const pending = await runtime.oauthLogin({ server: 'docs' });
    const state = new URL(pending.authorizationUrl).searchParams.get('state')!;
    const script = '<script>alert(1)</script>';
    try {
      const base = new URL(pending.redirectUri);
      const forged = new URL(base);
      forged.search = new URLSearchParams({
        error: script,
        error_description: script,
        code: script,
        state: script,
      }).toString();
      const other = new URL(forged);
      other.pathname = `/${script}`;
      for (const attempt of [forged, other]) {
        const page = await get(attempt.href);
        expect(page.text).not.toContain('<script');
        expect(page.type).toMatch(/^text\/plain\b/);
        expect(page.nosniff).toBe('nosniff');
      }
      // Only a response carrying this login's state has its error text shown: still plain text,
      // which the browser must not sniff into HTML.
      const withState = new URL(base);
      withState.search = new URLSearchParams({
        error: 'access_denied',
        error_description: script,
        state,
      }).toString();
      const page = await get(withState.href);
      expect(page).toMatchObject({ status: 400, nosniff: 'nosniff' });
      expect(page.type).toMatch(/^text\/plain\b/);
      await expect(pending.completed).rejects.toThrow('access_denied');
    } finally {
      pending.cancel();
      await pending.completed.catch(() => undefined);
    }
  });
});
