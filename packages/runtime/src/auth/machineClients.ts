/**
 * Clients that get tokens without a person, as SDK `OAuthClientProvider`s: client credentials
 * (client secret or private-key JWT), SEP-1933 workload identity, SEP-990 enterprise-managed
 * authorization (cross-app access). They come from the host (`RuntimeOAuthOptions.clients`) or
 * from the server's `[oauth]` table (`grant = …`), whose secrets are read here — from the
 * variable or owner-only file the config names — when a connection starts (workload JWTs and ID
 * tokens: for every token request).
 */

import { createPrivateKey } from 'node:crypto';

import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

import type { OAuthClientConfig, SecretSource } from '../config/types.js';
import { OAuthSecretError, readOwnerOnlyFile, readSecret } from './secrets.js';
import type { HostClient, MachineClient, SecretValue } from './types.js';
import { WorkloadIdentityProvider } from './workloadIdentity.js';

/**
 * The client a server's `[oauth]` table describes (undefined: the interactive login with no
 * configured secret). `server` labels the registration in messages.
 */
export function configuredClient(
  oauth: OAuthClientConfig | null,
  env: NodeJS.ProcessEnv,
  server: string,
): HostClient | undefined {
  if (oauth === null) return undefined;
  const secret = (source: SecretSource) => readSecret(source, env, server);
  const lazy =
    (source: SecretSource): SecretValue =>
    () =>
      secret(source);
  const clientId = oauth.clientId ?? '';
  const issuer = oauth.issuer !== null ? { issuer: oauth.issuer } : {};
  switch (oauth.grant) {
    case 'authorization_code':
      return oauth.clientSecret && oauth.clientId !== null
        ? { kind: 'pre_registered', clientId, clientSecret: secret(oauth.clientSecret), ...issuer }
        : undefined;
    case 'client_credentials':
      if (oauth.privateKey) {
        const pem = readOwnerOnlyFile(oauth.privateKey.file, 'oauth.private_key_file', server);
        return {
          kind: 'private_key_jwt',
          clientId,
          privateKey: pem,
          algorithm: oauth.privateKey.algorithm ?? inferAlgorithm(pem, server),
          ...issuer,
        };
      }
      return {
        kind: 'client_credentials',
        clientId,
        clientSecret: secret(oauth.clientSecret!),
        ...issuer,
      };
    case 'workload_identity':
      return { kind: 'workload_identity', clientId, assertion: lazy(oauth.assertion!), ...issuer };
    case 'enterprise_managed': {
      const idp = oauth.identityProvider!;
      return {
        kind: 'cross_app_access',
        clientId,
        clientSecret: secret(oauth.clientSecret!),
        ...issuer,
        identityProvider: {
          ...(idp.tokenEndpoint !== null ? { tokenEndpoint: idp.tokenEndpoint } : {}),
          ...(idp.issuer !== null ? { issuer: idp.issuer } : {}),
          clientId: idp.clientId,
          ...(idp.clientSecret ? { clientSecret: secret(idp.clientSecret) } : {}),
          idToken: lazy(idp.idToken),
        },
      };
    }
  }
}

/** The JWS algorithm a PEM private key signs with by default. */
function inferAlgorithm(pem: string, server: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new OAuthSecretError(
      `MCP server \`${server}\`: oauth.private_key_file is not a PEM private key`,
      { cause: error },
    );
  }
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === 'rsa') return 'RS256';
  if (type === 'rsa-pss') return 'PS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec' && curve === 'prime256v1') return 'ES256';
  if (type === 'ec' && curve === 'secp384r1') return 'ES384';
  if (type === 'ec' && curve === 'secp521r1') return 'ES512';
  throw new OAuthSecretError(
    `MCP server \`${server}\`: cannot tell the signing algorithm of oauth.private_key_file (${type ?? 'unknown'} key); set oauth.signing_algorithm`,
  );
}

const resolve = async (value: SecretValue): Promise<string> =>
  typeof value === 'string' ? value : await value();

/** The SDK provider that gets a machine client's tokens. */
export function machineProvider(client: MachineClient, server: string): OAuthClientProvider {
  // SEP-2352: with the issuer known, the credentials are sent to that authorization server only.
  const expectedIssuer = client.issuer !== undefined ? { expectedIssuer: client.issuer } : {};
  switch (client.kind) {
    case 'client_credentials':
      return new ClientCredentialsProvider({
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        clientName: 'mcprt',
        ...expectedIssuer,
      });
    case 'private_key_jwt':
      return new PrivateKeyJwtProvider({
        clientId: client.clientId,
        privateKey: client.privateKey,
        algorithm: client.algorithm,
        clientName: 'mcprt',
        ...expectedIssuer,
      });
    case 'workload_identity':
      return new WorkloadIdentityProvider({
        clientId: client.clientId,
        assertion: () => resolve(client.assertion),
        server,
        ...(client.issuer !== undefined ? { issuer: client.issuer } : {}),
      });
    case 'cross_app_access': {
      const idp = client.identityProvider;
      return new CrossAppAccessProvider({
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        clientName: 'mcprt',
        ...expectedIssuer,
        // SEP-990: trade the IdP's ID token for an ID-JAG at the IdP (RFC 8693), addressed to
        // the MCP server's authorization server and resource; the SDK then redeems it there.
        assertion: async (ctx) => {
          const common = {
            audience: ctx.authorizationServerUrl,
            resource: ctx.resourceUrl,
            idToken: await resolve(idp.idToken),
            clientId: idp.clientId,
            ...(idp.clientSecret !== undefined ? { clientSecret: idp.clientSecret } : {}),
            ...(ctx.scope !== undefined ? { scope: ctx.scope } : {}),
            fetchFn: ctx.fetchFn,
          };
          const grant =
            idp.tokenEndpoint !== undefined
              ? await requestJwtAuthorizationGrant({ ...common, tokenEndpoint: idp.tokenEndpoint })
              : await discoverAndRequestJwtAuthGrant({ ...common, idpUrl: idp.issuer ?? '' });
          return grant.jwtAuthGrant;
        },
      });
    }
  }
}
