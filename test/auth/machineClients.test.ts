// Machine clients configured in config.toml (`[mcp_servers.x.oauth] grant = …`) against a real
// authorization server (oidc-provider, with the RFC 7523 JWT-bearer grant added for workload
// identity): client credentials with a client secret read from an owner-only file or a
// variable, with a private-key JWT (the algorithm read off the key), DPoP-bound for a server
// that takes only DPoP, and workload identity — its JWT re-read for every token request (a
// rotated token is used), and a refused assertion reported once, never retried. A secret file
// others can read, or an unset variable, fails that server alone with a message naming the file
// or variable and the key; no secret shows up in status, history or messages.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';

import { Runtime } from '@mcprt/runtime';
import type { Session } from '@mcprt/runtime';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, q, tempDir, waitFor } from '../helpers/fixtures.js';
import { historyBytes } from '../helpers/history.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { JWT_BEARER, workloadIssuer } from '../fixtures/auth/jwtBearerGrant.js';
import type { WorkloadIssuer } from '../fixtures/auth/jwtBearerGrant.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';

const CLIENT_SECRET = 'svc-secret-0123456789abcdefghij';
const ENV_SECRET = 'env-secret-9876543210zyxwvutsrq';

const noClientFlows = { redirect_uris: [], response_types: [], scope: 'mcp:tools' };

describe('machine clients from config.toml (real authorization server)', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let dpopRs: ProtectedServer;
  let wifRs: ProtectedServer;
  let workload: WorkloadIssuer;
  let secrets: string;
  let runtime: Runtime;
  let session: Session;
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const captured: string[] = [];
  let home: string;
  let assertionFile: string;

  const file = (name: string, content: string, mode = 0o600) => {
    const path = join(secrets, name);
    writeFileSync(path, content);
    chmodSync(path, mode);
    return path;
  };

  beforeAll(async () => {
    workload = await workloadIssuer();
    let issuer = '';
    as = await startAuthServer({
      clients: [
        {
          client_id: 'svc',
          client_secret: CLIENT_SECRET,
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'client_secret_basic',
          ...noClientFlows,
        },
        {
          client_id: 'svc-env',
          client_secret: ENV_SECRET,
          grant_types: ['client_credentials'],
          ...noClientFlows,
        },
        {
          client_id: 'svc-jwt',
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ES256',
          jwks: { keys: [privateKey.publicKey.export({ format: 'jwk' })] },
          ...noClientFlows,
        },
        {
          client_id: 'workload',
          grant_types: [JWT_BEARER],
          token_endpoint_auth_method: 'none',
          ...noClientFlows,
        },
      ],
      grants: [workload.grant(() => issuer)],
    });
    issuer = as.issuer;
    rs = await startProtectedServer(as, { name: 'svc' });
    dpopRs = await startProtectedServer(as, { name: 'bound', dpop: {} });
    wifRs = await startProtectedServer(as, { name: 'workload' });
    secrets = tempDir('mcprt-secrets-');
    const secretFile = file('svc.secret', `${CLIENT_SECRET}\n`);
    const openFile = file('open.secret', `${CLIENT_SECRET}\n`, 0o644);
    const keyFile = file('svc.pem', pem);
    assertionFile = file('workload.jwt', await workload.token(as.issuer));
    const wrongAudience = file('wrong.jwt', await workload.token('https://elsewhere.example'));
    const server = (name: string, url: string, oauth: string[]) =>
      `[mcp_servers.${name}]\nurl = ${q(url)}\nstartup_timeout_sec = 10\n[mcp_servers.${name}.oauth]\n${oauth.join('\n')}\n`;
    home = makeHome(
      [
        'mcp_oauth_credentials_store = "file"',
        server('basic', rs.url, [
          'grant = "client_credentials"',
          'client_id = "svc"',
          `issuer = ${q(as.issuer)}`,
          `client_secret_file = ${q(secretFile)}`,
        ]),
        server('env', rs.url, [
          'grant = "client_credentials"',
          'client_id = "svc-env"',
          'client_secret_env_var = "SVC_ENV_SECRET"',
        ]),
        server('unset', rs.url, [
          'grant = "client_credentials"',
          'client_id = "svc-env"',
          'client_secret_env_var = "NOT_SET_ANYWHERE"',
        ]),
        server('open', rs.url, [
          'grant = "client_credentials"',
          'client_id = "svc"',
          `client_secret_file = ${q(openFile)}`,
        ]),
        server('pinned', rs.url, [
          'grant = "client_credentials"',
          'client_id = "svc-env"',
          'issuer = "https://the-real-as.example"',
          'client_secret_env_var = "SVC_ENV_SECRET"',
        ]),
        server('jwt', rs.url, [
          'grant = "client_credentials"',
          'client_id = "svc-jwt"',
          `private_key_file = ${q(keyFile)}`,
        ]),
        server('bound', dpopRs.url, [
          'grant = "client_credentials"',
          'client_id = "svc"',
          `client_secret_file = ${q(secretFile)}`,
        ]),
        server('wif', wifRs.url, [
          'grant = "workload_identity"',
          'client_id = "workload"',
          `issuer = ${q(as.issuer)}`,
          `assertion_file = ${q(assertionFile)}`,
        ]),
        server('refused', wifRs.url, [
          'grant = "workload_identity"',
          'client_id = "workload"',
          `assertion_file = ${q(wrongAudience)}`,
        ]),
      ].join('\n'),
    );
    runtime = Runtime.load({
      home,
      processEnv: { ...process.env, SVC_ENV_SECRET: ENV_SECRET },
    });
    session = runtime.startSession();
    await session.ready();
  });

  afterAll(async () => {
    await runtime?.close();
    await Promise.all([rs?.stop(), dpopRs?.stop(), wifRs?.stop()]);
    await as?.stop();
  });

  const whoami = async (server: string) => {
    const result = await session.callTool({ server, tool: 'whoami' });
    return (result.content as { text: string }[])[0]!.text;
  };

  it('gets tokens with a client secret from an owner-only file or a variable', async () => {
    for (const name of ['basic', 'env']) {
      expect(session.status(name)).toMatchObject({
        connectionStatus: 'connected',
        authStatus: 'oAuth',
      });
      expect(await whoami(name)).toBe('svc: ok');
    }
    expect(as.grants['client_credentials']).toBeGreaterThanOrEqual(3);
    expect(as.resources).toContain(rs.url);
  });

  it('refuses an interactive login for a machine client', async () => {
    const error = await runtime.oauthLogin({ server: 'basic' }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      'MCP server `basic` gets its OAuth tokens without a login (oauth.grant = "client_credentials")',
    );
  });

  it('sends credentials pinned to another issuer nowhere (SEP-2352)', async () => {
    const pinned = session.status('pinned');
    expect(pinned.connectionStatus).toBe('failed');
    expect(pinned.error).toMatch(
      /^MCP client for `pinned` failed to start: .*the-real-as\.example/,
    );
    // `svc-env` got tokens only for the `env` registration, never for `pinned`.
    expect(as.tokenClients.filter((c) => c === 'svc-env')).toHaveLength(1);
  });

  it('signs a private-key JWT with the algorithm of the key file', async () => {
    expect(session.status('jwt').connectionStatus).toBe('connected');
    expect(await whoami('jwt')).toBe('svc: ok');
  });

  it('fails only the server whose secret is unsafe or missing, naming the file or variable', async () => {
    const open = session.status('open');
    const openFile = join(secrets, 'open.secret');
    expect(open.connectionStatus).toBe('failed');
    expect(open.error).toBe(
      `MCP client for \`open\` failed to start: MCP server \`open\`: refusing to use \`${openFile}\` (oauth.client_secret_file): its mode is 0644, but a secret file must be readable by its owner only (chmod 600 ${openFile})`,
    );
    expect(session.status('unset').error).toBe(
      'MCP client for `unset` failed to start: MCP server `unset`: environment variable `NOT_SET_ANYWHERE` (oauth.client_secret_env_var) is not set',
    );
    captured.push(JSON.stringify(session.listStatus()));
  });

  it('binds machine tokens to an in-memory DPoP key for a server that takes only DPoP', async () => {
    expect(session.status('bound').connectionStatus).toBe('connected');
    expect(await whoami('bound')).toBe('bound: ok');
    const [first, ...rest] = dpopRs.dpop.thumbprints;
    expect(first).toBeDefined();
    expect(rest.every((t) => t === first)).toBe(true);
    expect(new Set(dpopRs.dpop.schemes.map((s) => s.toLowerCase()))).toEqual(new Set(['dpop']));
    // Machine tokens live in memory: nothing was written to the credential store.
    expect(() => readFileSync(join(home, '.credentials.json'))).toThrow();
  });

  it('redeems the workload JWT, re-reading it for every token request (rotation)', async () => {
    expect(session.status('wif').connectionStatus).toBe('connected');
    expect(await whoami('wif')).toBe('workload: ok');
    const first = readFileSync(assertionFile, 'utf8');
    expect(workload.received).toContain(first);
    // The platform rotates the token; the access token stops working (revoked here); the next
    // request gets a new one with the rotated assertion.
    const rotated = await workload.token(as.issuer, { subject: 'rotated' });
    writeFileSync(assertionFile, rotated);
    await as.revokeAccessToken(wifRs.acceptedTokens.at(-1)!);
    expect(await whoami('wif')).toBe('workload: ok');
    expect(workload.received.at(-1)).toBe(rotated);
  });

  it('reports a refused assertion once and never retries it', async () => {
    const refused = session.status('refused');
    expect(refused.connectionStatus).toBe('authenticationRequired');
    expect(refused.error).toBe(
      'the authorization server refused the workload identity assertion of MCP server `refused` (JWT-bearer grant); not retrying — check the token the config names (its audience must be the authorization server)',
    );
    const wrong = readFileSync(join(secrets, 'wrong.jwt'), 'utf8');
    expect(workload.received.filter((a) => a === wrong)).toHaveLength(1);
  });

  it('keeps every secret out of status, history and messages', async () => {
    captured.push(JSON.stringify(session.listStatus()));
    captured.push(historyBytes(home));
    const values = [CLIENT_SECRET, ENV_SECRET, readFileSync(assertionFile, 'utf8')];
    values.push(pem.split('\n')[1]!);
    for (const secret of values) for (const text of captured) expect(text).not.toContain(secret);
    const jwk = privateKey.publicKey.export({ format: 'jwk' });
    expect(await calculateJwkThumbprint(jwk as never)).not.toBe(dpopRs.dpop.thumbprints[0]);
    await waitFor(() => true);
  });
});
