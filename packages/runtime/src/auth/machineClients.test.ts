/**
 * Tests for turning a server's `[oauth]` table into the client that gets its tokens: which
 * secrets are read when (client secrets at connection start, workload JWTs and ID tokens at every
 * token request), the signing algorithm read off a private key, and clear errors.
 */

import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import type { OAuthClientConfig } from '../config/types.js';
import { configuredClient } from './machineClients.js';
import { OAuthSecretError } from './secrets.js';
import type { MachineClient } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'mcprt-machine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

const base: OAuthClientConfig = {
  clientId: 'svc',
  callbackUrl: null,
  callbackPort: null,
  grant: 'authorization_code',
  dpop: 'auto',
  issuer: null,
  clientSecret: null,
  privateKey: null,
  assertion: null,
  identityProvider: null,
};

const pem = (type: 'ec' | 'rsa' | 'ed25519', options: object = {}): string =>
  generateKeyPairSync(
    type as 'ec',
    {
      ...options,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    } as never,
  ).privateKey as unknown as string;

describe('configuredClient', () => {
  it('is nothing for an interactive login without a secret, a pre-registered client with one', () => {
    expect(configuredClient(null, {}, 'docs')).toBeUndefined();
    expect(configuredClient(base, {}, 'docs')).toBeUndefined();
    const withSecret = configuredClient(
      {
        ...base,
        issuer: 'https://as.example',
        clientSecret: { kind: 'env', name: 'S', key: 'oauth.client_secret_env_var' },
      },
      { S: 'the-secret' },
      'docs',
    );
    expect(withSecret).toEqual({
      kind: 'pre_registered',
      clientId: 'svc',
      clientSecret: 'the-secret',
      issuer: 'https://as.example',
    });
  });

  it('reads the signing algorithm off the private key unless configured', () => {
    const cases = [
      [pem('ec', { namedCurve: 'P-256' }), 'ES256'],
      [pem('ec', { namedCurve: 'P-384' }), 'ES384'],
      [pem('rsa', { modulusLength: 2048 }), 'RS256'],
      [pem('ed25519'), 'EdDSA'],
    ] as const;
    cases.forEach(([key, alg], i) => {
      const path = file(`key-${i}.pem`, key);
      const client = configuredClient(
        { ...base, grant: 'client_credentials', privateKey: { file: path, algorithm: null } },
        {},
        'svc',
      ) as Extract<MachineClient, { kind: 'private_key_jwt' }>;
      expect(client).toMatchObject({ kind: 'private_key_jwt', clientId: 'svc', algorithm: alg });
    });
    const path = file('key-explicit.pem', pem('rsa', { modulusLength: 2048 }));
    expect(
      configuredClient(
        { ...base, grant: 'client_credentials', privateKey: { file: path, algorithm: 'PS256' } },
        {},
        'svc',
      ),
    ).toMatchObject({ algorithm: 'PS256' });
    const junk = file('junk.pem', 'not a key');
    expect(() =>
      configuredClient(
        { ...base, grant: 'client_credentials', privateKey: { file: junk, algorithm: null } },
        {},
        'svc',
      ),
    ).toThrow(
      new OAuthSecretError('MCP server `svc`: oauth.private_key_file is not a PEM private key'),
    );
  });

  it('reads workload JWTs and ID tokens when a token is requested, not when configured', async () => {
    const env: NodeJS.ProcessEnv = {};
    const wif = configuredClient(
      {
        ...base,
        grant: 'workload_identity',
        assertion: { kind: 'env', name: 'WIF', key: 'oauth.assertion_env_var' },
      },
      env,
      'agent',
    ) as Extract<MachineClient, { kind: 'workload_identity' }>;
    const assertion = wif.assertion as () => string;
    expect(() => assertion()).toThrow(
      'MCP server `agent`: environment variable `WIF` (oauth.assertion_env_var) is not set',
    );
    env['WIF'] = 'jwt-1';
    expect(assertion()).toBe('jwt-1');
    env['WIF'] = 'jwt-2';
    expect(assertion()).toBe('jwt-2');

    const idToken = file('id.jwt', 'id-1\n');
    const ema = configuredClient(
      {
        ...base,
        grant: 'enterprise_managed',
        clientSecret: { kind: 'env', name: 'APP', key: 'oauth.client_secret_env_var' },
        identityProvider: {
          issuer: 'https://idp.example',
          tokenEndpoint: null,
          clientId: 'app-at-idp',
          clientSecret: null,
          idToken: { kind: 'file', path: idToken, key: 'oauth.identity_provider.id_token_file' },
        },
      },
      { APP: 'app-secret' },
      'crm',
    ) as Extract<MachineClient, { kind: 'cross_app_access' }>;
    expect(ema).toMatchObject({
      kind: 'cross_app_access',
      clientSecret: 'app-secret',
      identityProvider: { issuer: 'https://idp.example', clientId: 'app-at-idp' },
    });
    expect(ema.identityProvider.tokenEndpoint).toBeUndefined();
    const read = ema.identityProvider.idToken as () => string;
    expect(read()).toBe('id-1');
    writeFileSync(idToken, 'id-2');
    expect(read()).toBe('id-2');
    chmodSync(idToken, 0o644);
    expect(() => read()).toThrow(/refusing to use .* its mode is 0644/);
  });
});
