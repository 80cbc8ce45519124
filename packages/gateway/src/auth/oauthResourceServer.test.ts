/**
 * The OAuth resource server against a small real issuer on 127.0.0.1 (metadata and JWKS over
 * HTTP, keys generated here, tokens signed with jose's SignJWT): every way a token can be wrong
 * gets its status and exact challenge, no refusal repeats the token, keys are fetched lazily and
 * refetched on rotation (within the cooldown, not at all), a failed discovery is retried after a
 * pause, and a failing JWKS is a clear refusal plus one log line without the token.
 */

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK, JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ServeOAuthConfig } from '@mcprt/runtime';

import type { AuthOutcome } from './authenticator.js';
import { createOAuthAuthenticator, OAuthConfigError } from './oauthResourceServer.js';
import type { OAuthAuthenticatorOptions } from './oauthResourceServer.js';

const LISTEN = 'http://127.0.0.1:5999/mcp';
const METADATA = 'http://127.0.0.1:5999/.well-known/oauth-protected-resource/mcp';

type Key = Awaited<ReturnType<typeof generateKeyPair>>;

/** An issuer: RFC 8414 metadata (when `metadata`), and a JWKS whose keys the test sets. */
interface Issuer {
  readonly issuer: string;
  readonly jwksUri: string;
  keys: JWK[];
  metadata: boolean;
  jwksStatus: number;
  readonly fetches: { metadata: number; jwks: number };
  stop(): Promise<void>;
}

async function startIssuer(): Promise<Issuer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: Issuer = {
    issuer: base,
    jwksUri: `${base}/jwks`,
    keys: [],
    metadata: true,
    jwksStatus: 200,
    fetches: { metadata: 0, jwks: 0 },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on('request', (req, res) => {
    if (req.url === '/.well-known/oauth-authorization-server') {
      state.fetches.metadata++;
      if (!state.metadata) return void res.writeHead(404).end();
      const doc = { issuer: base, jwks_uri: state.jwksUri };
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(doc));
    }
    if (req.url === '/jwks') {
      state.fetches.jwks++;
      const body = JSON.stringify({ keys: state.keys });
      return void res.writeHead(state.jwksStatus, { 'content-type': 'application/json' }).end(body);
    }
    res.writeHead(404).end();
  });
  return state;
}

async function publicJwk(key: Key, kid: string | undefined, alg: string): Promise<JWK> {
  const jwk = await exportJWK(key.publicKey);
  return { ...jwk, alg, use: 'sig', ...(kid === undefined ? {} : { kid }) };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSec = (): number => Math.floor(Date.now() / 1000);

describe('OAuthResourceServer (a real issuer on 127.0.0.1)', () => {
  let as: Issuer;
  let keyA: Key;
  let keyB: Key;
  let attacker: Key;
  const logs: string[] = [];

  beforeAll(async () => {
    as = await startIssuer();
    [keyA, keyB, attacker] = await Promise.all([
      generateKeyPair('ES256'),
      generateKeyPair('RS256'),
      generateKeyPair('ES256'),
    ]);
    as.keys = [await publicJwk(keyA, 'a', 'ES256')];
  });
  afterAll(() => as.stop());

  const config = (over: Partial<ServeOAuthConfig> = {}): ServeOAuthConfig => ({
    issuer: as.issuer,
    resource: null,
    scopes: ['mcp:tools'],
    groupsClaim: 'groups',
    clockSkewSec: 60,
    jwksUri: null,
    ...over,
  });
  const server = (
    over: Partial<ServeOAuthConfig> = {},
    options: Partial<OAuthAuthenticatorOptions> = {},
  ) =>
    createOAuthAuthenticator(config(over), {
      listenUrl: LISTEN,
      log: (line) => logs.push(line),
      ...options,
    });

  /** Standard claims with `over` on top (an undefined value leaves the claim out). */
  const claims = (over: Record<string, unknown> = {}): JWTPayload => ({
    iss: as.issuer,
    aud: 'http://127.0.0.1:5999/mcp',
    sub: 'alice',
    client_id: 'cli',
    scope: 'mcp:tools mcp:extra',
    groups: ['eng', 'ops'],
    iat: nowSec(),
    exp: nowSec() + 600,
    ...over,
  });
  const sign = (
    payload: JWTPayload,
    key: Key = keyA,
    header: { alg?: string; kid?: string | null; typ?: string | null } = {},
  ) => {
    const alg = header.alg ?? 'ES256';
    const kid = header.kid === undefined ? 'a' : header.kid;
    const typ = header.typ === undefined ? 'at+jwt' : header.typ;
    return new SignJWT(payload)
      .setProtectedHeader({
        alg,
        ...(kid === null ? {} : { kid }),
        ...(typ === null ? {} : { typ }),
      })
      .sign(key.privateKey);
  };

  /** The refusal's status and challenge; the token (and each of its parts) appears nowhere. */
  function refused(outcome: AuthOutcome, token: string | null) {
    expect(outcome.ok).toBe(false);
    if (outcome.ok) throw new Error('accepted');
    const text = JSON.stringify(outcome) + logs.join('\n');
    for (const part of token === null ? [] : [token, ...token.split('.')]) {
      if (part.length >= 8) expect(text).not.toContain(part);
    }
    return {
      status: outcome.status,
      challenge: outcome.headers['www-authenticate'],
      body: JSON.parse(outcome.body) as Record<string, string>,
    };
  }
  const invalid = (description: string) =>
    `Bearer error="invalid_token", error_description="${description}", resource_metadata="${METADATA}"`;
  async function expectInvalid(
    rs: ReturnType<typeof server>,
    token: string,
    description: string,
  ): Promise<void> {
    const result = refused(await rs.authenticate(`Bearer ${token}`), token);
    expect(result).toEqual({
      status: 401,
      challenge: invalid(description),
      body: { error: 'invalid_token', error_description: description },
    });
  }

  it('a valid token: the caller from its claims; keys are fetched once, lazily', async () => {
    const before = { ...as.fetches };
    const rs = server();
    expect(as.fetches).toEqual(before);
    const token = await sign(claims());
    expect(await rs.authenticate(`Bearer ${token}`)).toEqual({
      ok: true,
      caller: {
        kind: 'oauth',
        subject: 'alice',
        clientId: 'cli',
        scopes: ['mcp:tools', 'mcp:extra'],
        groups: ['eng', 'ops'],
      },
    });
    expect(await rs.authenticate(`bearer  ${token}`)).toMatchObject({ ok: true });
    expect(as.fetches).toEqual({ metadata: before.metadata + 1, jwks: before.jwks + 1 });
  });

  it('typ at+jwt, JWT or none; azp and scp; an aud array; the configured groups claim', async () => {
    const rs = server({ groupsClaim: 'roles' });
    for (const typ of ['at+jwt', 'application/at+jwt', 'JWT', null]) {
      const outcome = await rs.authenticate(`Bearer ${await sign(claims(), keyA, { typ })}`);
      expect(outcome.ok).toBe(true);
    }
    const payload = claims({
      client_id: undefined,
      azp: 'spa',
      scope: undefined,
      scp: ['mcp:tools', 'x'],
      aud: ['other', 'http://127.0.0.1:5999/mcp'],
      roles: 'admin',
    });
    expect(await rs.authenticate(`Bearer ${await sign(payload)}`)).toEqual({
      ok: true,
      caller: {
        kind: 'oauth',
        subject: 'alice',
        clientId: 'spa',
        scopes: ['mcp:tools', 'x'],
        groups: ['admin'],
      },
    });
  });

  it('no token, another scheme, an empty bearer: 401 naming the metadata, no error code', async () => {
    const rs = server();
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer   ']) {
      expect(refused(await rs.authenticate(header), null)).toEqual({
        status: 401,
        challenge: `Bearer resource_metadata="${METADATA}"`,
        body: { error: 'unauthorized', error_description: 'a bearer token is required' },
      });
    }
  });

  it('malformed tokens', async () => {
    const rs = server();
    for (const token of [
      'not-a-jwt',
      'a.b',
      'a.b.c.d.e',
      'x'.repeat(20_000),
      `${b64({ alg: 'ES256' })}.%%.x`,
    ]) {
      await expectInvalid(rs, token, 'the token is malformed');
    }
    const spaced = refused(await rs.authenticate('Bearer two words'), 'two words');
    expect(spaced.challenge).toBe(invalid('the token is malformed'));
  });

  it('expired, not yet valid, issued in the future, no expiry — within and beyond the clock skew', async () => {
    const rs = server({ clockSkewSec: 60 });
    const strict = server({ clockSkewSec: 0 });
    const expiredLately = await sign(claims({ iat: nowSec() - 600, exp: nowSec() - 30 }));
    expect((await rs.authenticate(`Bearer ${expiredLately}`)).ok).toBe(true);
    await expectInvalid(strict, expiredLately, 'the token has expired');
    await expectInvalid(rs, await sign(claims({ exp: nowSec() - 120 })), 'the token has expired');
    await expectInvalid(
      rs,
      await sign(claims({ nbf: nowSec() + 120 })),
      'the token is not valid yet',
    );
    expect((await rs.authenticate(`Bearer ${await sign(claims({ nbf: nowSec() + 30 }))}`)).ok).toBe(
      true,
    );
    await expectInvalid(
      rs,
      await sign(claims({ iat: nowSec() + 120 })),
      'the token was issued in the future',
    );
    await expectInvalid(rs, await sign(claims({ exp: undefined })), 'the token has no expiry');
    // The injected clock: a valid token two hours on.
    const later = server({}, { now: () => new Date(Date.now() + 2 * 3600_000) });
    await expectInvalid(later, await sign(claims()), 'the token has expired');
  });

  it('wrong audience, wrong issuer, another typ', async () => {
    const rs = server();
    for (const aud of ['http://127.0.0.1:5999/other', 'http://127.0.0.1:5999/mcp/', ['a', 'b']]) {
      await expectInvalid(rs, await sign(claims({ aud })), 'the token is not for this resource');
    }
    await expectInvalid(
      rs,
      await sign(claims({ aud: undefined })),
      'the token is not for this resource',
    );
    for (const iss of ['http://evil.example', `${as.issuer}/`, undefined]) {
      await expectInvalid(
        rs,
        await sign(claims({ iss })),
        'the token was not issued by the expected authorization server',
      );
    }
    await expectInvalid(
      rs,
      await sign(claims(), keyA, { typ: 'dpop+jwt' }),
      'the token is not an access token',
    );
  });

  it('a token bound to a key (cnf) is refused, not downgraded to a bearer token', async () => {
    await expectInvalid(
      server(),
      await sign(claims({ cnf: { jkt: 'abc' } })),
      'the token is bound to a key (DPoP or mTLS), which this gateway does not check',
    );
  });

  it('a configured resource replaces the listen URL (aud and metadata URL)', async () => {
    const rs = server({ resource: 'https://gw.example.com/team/mcp' });
    expect(rs.resource).toBe('https://gw.example.com/team/mcp');
    expect(rs.metadataUrl).toBe(
      'https://gw.example.com/.well-known/oauth-protected-resource/team/mcp',
    );
    const ok = await sign(claims({ aud: 'https://gw.example.com/team/mcp' }));
    expect((await rs.authenticate(`Bearer ${ok}`)).ok).toBe(true);
    const outcome = refused(await rs.authenticate(`Bearer ${await sign(claims())}`), null);
    expect(outcome.challenge).toBe(
      `Bearer error="invalid_token", error_description="the token is not for this resource", resource_metadata="${rs.metadataUrl}"`,
    );
  });

  it('unsigned (alg none), HS256 with a guessable secret, a bad signature, an unknown key', async () => {
    const before = { ...as.fetches };
    const rs = server();
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
    await expectInvalid(rs, none, "the token's signing algorithm is not accepted");
    const secret = new TextEncoder().encode('secret');
    const hs = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: 'a' })
      .sign(secret);
    await expectInvalid(rs, hs, "the token's signing algorithm is not accepted");
    // Refused from the header alone: no key was fetched for them.
    expect(as.fetches).toEqual(before);
    await expectInvalid(rs, await sign(claims(), attacker), "the token's signature is invalid");
    const forged = (await sign(claims())).split('.');
    forged[1] = b64(claims({ sub: 'root' }));
    await expectInvalid(rs, forged.join('.'), "the token's signature is invalid");
    await expectInvalid(
      rs,
      await sign(claims(), attacker, { kid: 'x' }),
      "the token's signing key is unknown",
    );
  });

  it('a missing required scope: 403 insufficient_scope naming it', async () => {
    const rs = server({ scopes: ['mcp:tools', 'mcp:admin', 'audit'] });
    const token = await sign(claims({ scope: 'mcp:tools' }));
    expect(refused(await rs.authenticate(`Bearer ${token}`), token)).toEqual({
      status: 403,
      challenge: `Bearer error="insufficient_scope", scope="mcp:tools mcp:admin audit", resource_metadata="${METADATA}"`,
      body: {
        error: 'insufficient_scope',
        error_description: 'the token lacks the required scopes: mcp:admin audit',
        scope: 'mcp:tools mcp:admin audit',
      },
    });
    const none = await sign(claims({ scope: undefined }));
    expect(
      refused(await server().authenticate(`Bearer ${none}`), none).body['error_description'],
    ).toBe('the token lacks the required scope: mcp:tools');
  });

  it('key rotation: a new kid is fetched (after the cooldown); the retired key is refused', async () => {
    const rs = server({}, { keys: { cooldownMs: 300 } });
    expect((await rs.authenticate(`Bearer ${await sign(claims())}`)).ok).toBe(true);
    as.keys = [await publicJwk(keyB, 'b', 'RS256')];
    const tokenB = await sign(claims(), keyB, { alg: 'RS256', kid: 'b' });
    const fetched = as.fetches.jwks;
    // Within the cooldown the key set is not fetched again for an unknown kid.
    await expectInvalid(rs, tokenB, "the token's signing key is unknown");
    expect(as.fetches.jwks).toBe(fetched);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await rs.authenticate(`Bearer ${tokenB}`)).toMatchObject({ ok: true });
    expect(as.fetches.jwks).toBe(fetched + 1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await expectInvalid(rs, await sign(claims()), "the token's signing key is unknown");
    as.keys = [await publicJwk(keyA, 'a', 'ES256')];
  });

  it('keys without kid: the one the signature verifies with', async () => {
    as.keys = [
      await publicJwk(attacker, undefined, 'ES256'),
      await publicJwk(keyA, undefined, 'ES256'),
    ];
    try {
      const rs = server();
      const token = await sign(claims(), keyA, { kid: null });
      expect((await rs.authenticate(`Bearer ${token}`)).ok).toBe(true);
      const other = await generateKeyPair('ES256');
      await expectInvalid(
        rs,
        await sign(claims(), other, { kid: null }),
        "the token's signature is invalid",
      );
    } finally {
      as.keys = [await publicJwk(keyA, 'a', 'ES256')];
    }
  });

  it('discovery fails: a clear 401 and a log line; retried after the pause, then it works', async () => {
    logs.length = 0;
    as.metadata = false;
    const rs = server({}, { keys: { retryAfterMs: 200 } });
    const token = await sign(claims());
    const description = "the authorization server's keys could not be fetched";
    await expectInvalid(rs, token, description);
    expect(logs).toEqual([
      `cannot discover the authorization server ${as.issuer}: ${as.issuer}/.well-known/oauth-authorization-server: HTTP 404; ${as.issuer}/.well-known/openid-configuration: HTTP 404`,
    ]);
    as.metadata = true;
    const fetched = as.fetches.metadata;
    await expectInvalid(rs, token, description);
    expect(as.fetches.metadata).toBe(fetched);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await rs.authenticate(`Bearer ${token}`)).ok).toBe(true);
  });

  it('jwks_uri overrides discovery; a failing JWKS is a clear 401 and a log line', async () => {
    logs.length = 0;
    const before = as.fetches.metadata;
    const rs = server({ jwksUri: as.jwksUri });
    const token = await sign(claims());
    expect((await rs.authenticate(`Bearer ${token}`)).ok).toBe(true);
    expect(as.fetches.metadata).toBe(before);
    as.jwksStatus = 500;
    try {
      const failing = server({ jwksUri: as.jwksUri });
      await expectInvalid(failing, token, "the authorization server's keys could not be fetched");
      expect(logs).toEqual([
        `cannot fetch the signing keys of ${as.issuer}: Expected 200 OK from the JSON Web Key Set HTTP response`,
      ]);
    } finally {
      as.jwksStatus = 200;
    }
  });

  it('a config it cannot work with is a typed error at construction, not a failing request', () => {
    for (const [over, listenUrl] of [
      [{ scopes: ['a"b'] }, LISTEN],
      [{ issuer: 'not a url' }, LISTEN],
      [{}, '127.0.0.1:80'],
    ] as const) {
      expect(() => createOAuthAuthenticator(config(over), { listenUrl })).toThrow(OAuthConfigError);
    }
    expect(() =>
      createOAuthAuthenticator(config({ scopes: ['a"b'] }), { listenUrl: LISTEN }),
    ).toThrow(expect.objectContaining({ code: 'invalid_oauth_config' }));
  });

  it('serves its RFC 9728 metadata at both well-known paths', () => {
    const rs = server({ scopes: ['mcp:tools', 'mcp:admin'] });
    const document = {
      contentType: 'application/json',
      body: `${JSON.stringify({
        resource: 'http://127.0.0.1:5999/mcp',
        authorization_servers: [as.issuer],
        scopes_supported: ['mcp:tools', 'mcp:admin'],
        bearer_methods_supported: ['header'],
        resource_name: 'mcprt gateway',
      })}\n`,
    };
    expect(rs.publicDocument('/.well-known/oauth-protected-resource/mcp')).toEqual(document);
    expect(rs.publicDocument('/.well-known/oauth-protected-resource')).toEqual(document);
    expect(rs.publicDocument('/mcp')).toBeNull();
    expect(rs.publicDocument('/.well-known/oauth-authorization-server')).toBeNull();
  });
});
