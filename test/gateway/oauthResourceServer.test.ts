// `[serve.auth] mode = "oauth"`: the gateway's resource server (createOAuthAuthenticator) against
// a real authorization server (oidc-provider issuing RFC 9068 JWT access tokens, found through
// OpenID discovery since it serves no RFC 8414 document). Real tokens from the client-credentials
// grant and the authorization-code flow give callers with their subject, client, scopes and
// groups; a token for another resource, one of another real authorization server (same signing
// key, other issuer), a DPoP-bound one, an expired one, an unsigned one, one signed with a guessed HMAC secret or
// a key of the test's own, and one lacking a required scope are each refused with the exact
// challenge; after the issuer's JWKS rotates to a new key, tokens signed with it verify. No
// refusal carries the token.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createOAuthAuthenticator } from '@mcprt/gateway';
import type { AuthOutcome } from '@mcprt/gateway';
import type { ServeOAuthConfig } from '@mcprt/runtime';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK, JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { authorizationCodeToken, clientCredentialsToken } from '../fixtures/auth/accessTokens.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';

const LISTEN = 'http://127.0.0.1:7/mcp';
const METADATA = 'http://127.0.0.1:7/.well-known/oauth-protected-resource/mcp';
const SVC = { id: 'svc', secret: 'svc-secret-0123456789abcdefghij' };
const SCOPES = 'mcp:tools mcp:admin';

const svcClient = {
  client_id: SVC.id,
  client_secret: SVC.secret,
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
  scope: SCOPES,
};

const challenge = (description: string): string =>
  `Bearer error="invalid_token", error_description="${description}", resource_metadata="${METADATA}"`;

/** A refusal's status, challenge and body; the token and its parts appear in none of it. */
function refusal(outcome: AuthOutcome, token: string) {
  if (outcome.ok) throw new Error('the token was accepted');
  const text = JSON.stringify(outcome);
  for (const part of [token, ...token.split('.')].filter((p) => p.length >= 8)) {
    expect(text).not.toContain(part);
  }
  return {
    status: outcome.status,
    challenge: outcome.headers['www-authenticate'],
    body: JSON.parse(outcome.body) as unknown,
  };
}

describe('the OAuth resource server against a real authorization server', () => {
  let as: AuthServer;
  let other: AuthServer;
  const logs: string[] = [];

  const config = (over: Partial<ServeOAuthConfig> = {}): ServeOAuthConfig => ({
    issuer: as.issuer,
    resource: null,
    scopes: ['mcp:tools'],
    groupsClaim: 'groups',
    clockSkewSec: 0,
    jwksUri: null,
    ...over,
  });
  const gateway = (over: Partial<ServeOAuthConfig> = {}) =>
    createOAuthAuthenticator(config(over), { listenUrl: LISTEN, log: (l) => logs.push(l) });
  const expectInvalid = async (token: string, description: string, over = {}) => {
    expect(refusal(await gateway(over).authenticate(`Bearer ${token}`), token)).toEqual({
      status: 401,
      challenge: challenge(description),
      body: { error: 'invalid_token', error_description: description },
    });
  };

  beforeAll(async () => {
    const options = {
      jwtAccessTokens: true,
      dpop: false,
      resourceScopes: SCOPES,
      clients: [svcClient],
      extraTokenClaims: ({ accountId }: { accountId: string | undefined }) =>
        accountId === 'test-user' ? { groups: ['eng', 'ops'] } : { groups: 'robots' },
    };
    as = await startAuthServer(options);
    other = await startAuthServer({ ...options, accessTokenTtl: 1, dpop: true });
  });
  afterAll(async () => {
    await as.stop();
    await other.stop();
    expect(logs).toEqual([]);
  });

  it('a client-credentials token: the client as the caller, its scopes and groups', async () => {
    const token = await clientCredentialsToken(as, SVC, 'http://127.0.0.1:7/mcp', 'mcp:tools');
    expect(decodeProtectedHeader(token)).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    expect(await gateway().authenticate(`Bearer ${token}`)).toEqual({
      ok: true,
      caller: {
        kind: 'oauth',
        subject: 'svc',
        clientId: 'svc',
        scopes: ['mcp:tools'],
        groups: ['robots'],
      },
    });
  });

  it('an authorization-code token: the user as the caller, the client it used', async () => {
    const { token, clientId } = await authorizationCodeToken(as, LISTEN, SCOPES);
    expect(
      await gateway({ scopes: ['mcp:tools', 'mcp:admin'] }).authenticate(`Bearer ${token}`),
    ).toEqual({
      ok: true,
      caller: {
        kind: 'oauth',
        subject: 'test-user',
        clientId,
        scopes: ['mcp:tools', 'mcp:admin'],
        groups: ['eng', 'ops'],
      },
    });
  });

  it('a token for another resource', async () => {
    const token = await clientCredentialsToken(as, SVC, 'http://127.0.0.1:7/other', 'mcp:tools');
    await expectInvalid(token, 'the token is not for this resource');
  });

  it("another authorization server's token (same signing key, other issuer)", async () => {
    const token = await clientCredentialsToken(other, SVC, LISTEN, 'mcp:tools');
    await expectInvalid(token, 'the token was not issued by the expected authorization server');
    expect((await gateway({ issuer: other.issuer }).authenticate(`Bearer ${token}`)).ok).toBe(true);
  });

  it('a DPoP-bound token presented as a bearer token (its binding would go unchecked)', async () => {
    const token = await clientCredentialsToken(other, SVC, LISTEN, 'mcp:tools', { dpop: true });
    expect(decodeJwt(token)['cnf']).toHaveProperty('jkt');
    await expectInvalid(
      token,
      'the token is bound to a key (DPoP or mTLS), which this gateway does not check',
      { issuer: other.issuer },
    );
  });

  it('an expired token (a user token of a 1 s lifetime, no clock skew)', async () => {
    const { token } = await authorizationCodeToken(other, LISTEN, 'mcp:tools');
    const wait = (decodeJwt(token).exp ?? 0) * 1000 - Date.now() + 50;
    expect(wait).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, wait));
    await expectInvalid(token, 'the token has expired', { issuer: other.issuer });
  });

  it('unsigned (alg none), HS256 with a guessed secret, signed with a key of our own', async () => {
    const real = await clientCredentialsToken(as, SVC, LISTEN, 'mcp:tools');
    const [header, payload] = real.split('.') as [string, string];
    const { kid } = decodeProtectedHeader(real);
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`;
    await expectInvalid(none, "the token's signing algorithm is not accepted");
    const claims = decodeJwt(real);
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', ...(kid ? { kid } : {}) })
      .sign(new TextEncoder().encode(SVC.secret));
    await expectInvalid(hs, "the token's signing algorithm is not accepted");
    const own = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...claims, sub: 'admin' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', ...(kid ? { kid } : {}) })
      .sign(own.privateKey);
    // The very header of the real token (its kid): only the signature tells them apart.
    expect(forged.split('.')[0]).toBe(header);
    await expectInvalid(forged, "the token's signature is invalid");
  });

  it('a token lacking a required scope: 403 insufficient_scope naming it', async () => {
    const token = await clientCredentialsToken(as, SVC, LISTEN, 'mcp:tools');
    const rs = gateway({ scopes: ['mcp:tools', 'mcp:admin'] });
    expect(refusal(await rs.authenticate(`Bearer ${token}`), token)).toEqual({
      status: 403,
      challenge: `Bearer error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${METADATA}"`,
      body: {
        error: 'insufficient_scope',
        error_description: 'the token lacks the required scope: mcp:admin',
        scope: 'mcp:tools mcp:admin',
      },
    });
    const both = await clientCredentialsToken(as, SVC, LISTEN, SCOPES);
    expect((await rs.authenticate(`Bearer ${both}`)).ok).toBe(true);
  });

  it('no token: 401 naming the metadata, which names the authorization server', async () => {
    const rs = gateway({ scopes: ['mcp:tools'] });
    const outcome = await rs.authenticate(undefined);
    expect(outcome).toMatchObject({
      ok: false,
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${METADATA}"` },
    });
    const path = new URL(METADATA).pathname;
    expect(JSON.parse(rs.publicDocument(path)?.body ?? '')).toEqual({
      resource: LISTEN,
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'mcprt gateway',
    });
  });

  describe('key rotation at the issuer', () => {
    let jwksServer: Server;
    let keys: JWK[] = [];
    let jwksUri = '';
    beforeAll(async () => {
      jwksServer = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
      });
      await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
      jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
    });
    afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

    it('a token signed with the new key verifies once the JWKS has it; the old key is gone', async () => {
      const [a, b] = await Promise.all([generateKeyPair('ES256'), generateKeyPair('ES256')]);
      const jwk = async (key: typeof a, kid: string): Promise<JWK> => ({
        ...(await exportJWK(key.publicKey)),
        kid,
        alg: 'ES256',
        use: 'sig',
      });
      const sign = (key: typeof a, kid: string) => {
        const now = Math.floor(Date.now() / 1000);
        const claims: JWTPayload = { iss: as.issuer, aud: LISTEN, sub: 'u', scope: 'mcp:tools' };
        return new SignJWT({ ...claims, iat: now, exp: now + 300 })
          .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
          .sign(key.privateKey);
      };
      keys = [await jwk(a, 'key-a')];
      const rs = createOAuthAuthenticator(config({ jwksUri }), {
        listenUrl: LISTEN,
        keys: { cooldownMs: 100 },
      });
      expect((await rs.authenticate(`Bearer ${await sign(a, 'key-a')}`)).ok).toBe(true);
      keys = [await jwk(a, 'key-a'), await jwk(b, 'key-b')];
      await new Promise((resolve) => setTimeout(resolve, 150));
      const tokenB = await sign(b, 'key-b');
      expect(await rs.authenticate(`Bearer ${tokenB}`)).toMatchObject({ ok: true });
      keys = [await jwk(b, 'key-b')];
      await new Promise((resolve) => setTimeout(resolve, 150));
      const stale = await sign(a, 'key-a');
      // Key A is still cached (until cacheMaxAge); an unknown kid is what triggers a refetch.
      expect((await rs.authenticate(`Bearer ${stale}`)).ok).toBe(true);
      const unknown = await sign(a, 'key-c');
      expect(refusal(await rs.authenticate(`Bearer ${unknown}`), unknown).challenge).toBe(
        challenge("the token's signing key is unknown"),
      );
      expect(refusal(await rs.authenticate(`Bearer ${stale}`), stale).challenge).toBe(
        challenge("the token's signing key is unknown"),
      );
    });
  });
});
