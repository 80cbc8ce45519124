// DPoP (RFC 9449, SEP-1932) against a real authorization server (oidc-provider binds tokens to
// the proof's key) and an MCP server that takes only DPoP-bound tokens (it checks every proof
// and that its key is the one the token is bound to, and requires a nonce). A login stores the
// key with the tokens; every request — after a refresh, and from another runtime reading the
// same store — proves possession of that key; `auto` never binds tokens for a server that only
// takes Bearer; `required` refuses an authorization server that cannot bind. Neither the key nor
// a token shows up in status, history or errors.

import { credentialStoreKey, Runtime } from '@mcprt/runtime';
import type { Session } from '@mcprt/runtime';
import { calculateJwkThumbprint } from 'jose';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, q, waitFor } from '../helpers/fixtures.js';
import { historyBytes } from '../helpers/history.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { readCredentialsFile, secretValues } from './helpers.js';

const HOUR = 3_600_000;
const NONCE = 'rs-nonce-4f1c';

function publicThumbprint(jwk: Record<string, unknown>): Promise<string> {
  const { d: _d, ...publicJwk } = jwk;
  return calculateJwkThumbprint(publicJwk as JWK, 'sha256');
}

describe('DPoP-bound OAuth (library, real authorization server)', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let home: string;
  let runtime: Runtime;
  let session: Session;
  let clock = Date.now();
  let key: string;
  const captured: string[] = [];

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer(as, { name: 'docs', dpop: { nonce: NONCE } });
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

  const whoami = (s: Session = session) => s.callTool({ server: 'docs', tool: 'whoami' });
  const text = (r: Awaited<ReturnType<typeof whoami>>) =>
    (r.content as { type: string; text: string }[])[0]!.text;

  it('binds a login’s tokens to a key stored with them and proves possession on every request', async () => {
    await session.ready();
    expect(session.status('docs').connectionStatus).toBe('authenticationRequired');
    const pending = await runtime.oauthLogin({ server: 'docs' });
    await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: true });
    await pending.completed;
    await waitFor(() => session.status('docs').connectionStatus === 'connected', 10_000);
    expect(text(await whoami())).toBe('docs: ok');
    expect(text(await whoami())).toBe('docs: ok');

    const record = readCredentialsFile(home)[key]!;
    expect(record['token_type']).toBe('DPoP');
    const stored = record['dpop_key'] as { alg: string; jwk: Record<string, unknown> };
    expect(stored.alg).toBe('ES256');
    const thumbprint = await publicThumbprint(stored.jwk);
    // Every accepted request carried a proof by the stored key, which is the key the
    // authorization server bound the token to; no proof was ever reused.
    expect(rs.dpop.thumbprints.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rs.dpop.thumbprints)).toEqual(new Set([thumbprint]));
    expect(rs.dpop.boundTo.get(record['access_token'] as string)).toBe(thumbprint);
    expect(new Set(rs.dpop.schemes.map((s) => s.toLowerCase()))).toEqual(new Set(['dpop']));
    // The server's nonce was asked for once and then reused for later proofs.
    expect(rs.dpop.nonceChallenges).toBe(1);
    expect(rs.dpop.refusals).toEqual(['use_dpop_nonce']);
  });

  it('keeps the binding through a refresh (the refresh request is signed by the same key)', async () => {
    const before = readCredentialsFile(home)[key]!;
    clock += 2 * HOUR;
    expect(text(await whoami())).toBe('docs: ok');
    expect(as.grants['refresh_token']).toBe(1);
    const after = readCredentialsFile(home)[key]!;
    expect(after['access_token']).not.toBe(before['access_token']);
    expect(after['dpop_key']).toEqual(before['dpop_key']);
    const thumbprint = await publicThumbprint((after['dpop_key'] as { jwk: JWK }).jwk as never);
    expect(rs.dpop.boundTo.get(after['access_token'] as string)).toBe(thumbprint);
  });

  it('uses the stored key from another runtime reading the same store', async () => {
    const other = Runtime.load({ home, oauth: { now: () => clock } });
    try {
      const second = other.startSession();
      await second.ready();
      expect(second.status('docs').connectionStatus).toBe('connected');
      expect(text(await whoami(second))).toBe('docs: ok');
      const stored = readCredentialsFile(home)[key]!['dpop_key'] as { jwk: JWK };
      expect(rs.dpop.thumbprints.at(-1)).toBe(await publicThumbprint(stored.jwk as never));
      captured.push(JSON.stringify(second.listStatus()));
    } finally {
      await other.close();
    }
  });

  it('never shows the key or a token in status, history or messages', async () => {
    captured.push(JSON.stringify(session.listStatus()));
    const error = await session.callTool({ server: 'docs', tool: 'nope' }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    captured.push(error?.message ?? '');
    captured.push(historyBytes(home));
    const record = readCredentialsFile(home)[key]!;
    const secrets = [
      ...secretValues(home),
      String((record['dpop_key'] as { jwk: Record<string, unknown> }).jwk['d']),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) for (const text of captured) expect(text).not.toContain(secret);
  });
});

describe('DPoP policy', () => {
  let dpopAs: AuthServer;
  let bearerRs: ProtectedServer;
  let plainAs: AuthServer;
  let plainRs: ProtectedServer;

  beforeAll(async () => {
    dpopAs = await startAuthServer();
    bearerRs = await startProtectedServer(dpopAs, { name: 'bearer' });
    plainAs = await startAuthServer({ dpop: false });
    plainRs = await startProtectedServer(plainAs, { name: 'plain' });
  });

  afterAll(async () => {
    await Promise.all([bearerRs?.stop(), plainRs?.stop()]);
    await Promise.all([dpopAs?.stop(), plainAs?.stop()]);
  });

  it('auto: a server that takes only Bearer gets Bearer tokens, even from a DPoP-capable AS', async () => {
    const home = makeHome(
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.bearer]\nurl = ${q(bearerRs.url)}\n`,
    );
    const runtime = Runtime.load({ home });
    try {
      const pending = await runtime.oauthLogin({ server: 'bearer' });
      await authorize(pending.authorizationUrl, pending.redirectUri, { deliver: true });
      await pending.completed;
      const record = Object.values(readCredentialsFile(home))[0]!;
      expect(record['token_type']).toBe('Bearer');
      expect(record['dpop_key']).toBeUndefined();
      const session = runtime.startSession();
      await session.ready();
      const result = await session.callTool({ server: 'bearer', tool: 'whoami' });
      expect((result.content as { text: string }[])[0]!.text).toBe('bearer: ok');
    } finally {
      await runtime.close();
    }
  });

  it('required: an authorization server that cannot bind tokens fails the login before the browser', async () => {
    const home = makeHome(
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.plain]\nurl = ${q(plainRs.url)}\n[mcp_servers.plain.oauth]\ndpop = "required"\n`,
    );
    const runtime = Runtime.load({ home });
    try {
      const error = await runtime.oauthLogin({ server: 'plain' }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toBe(
        'failed to login to MCP server \'plain\': the authorization server of MCP server `plain` does not support DPoP (it lists no supported dpop_signing_alg_values_supported), but oauth.dpop = "required"',
      );
      expect(plainAs.grants).toEqual({});
    } finally {
      await runtime.close();
    }
  });
});
