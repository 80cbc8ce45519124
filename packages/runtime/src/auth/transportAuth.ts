/**
 * What the streamable-HTTP transport of one registration gets for OAuth: an `authProvider` and a
 * `fetch`. For interactive (authorization-code) credentials the provider is our own minimal
 * `AuthProvider` over the stored credential — `token()` refreshes 30 s before expiry,
 * `onUnauthorized()` refreshes once after an `invalid_token` 401 (the transport then retries
 * once) and otherwise says "not logged in" — so a connection never opens a browser or registers
 * a client. A `403 insufficient_scope` surfaces as the SDK's `InsufficientScopeError`; the fetch
 * wrapper records the scopes asked for, so the next login requests them too (step-up). Machine
 * clients (client credentials, private-key JWT, cross-app access) use the SDK's own providers,
 * which fetch tokens without a person.
 */

import {
  ClientCredentialsProvider,
  computeScopeUnion,
  CrossAppAccessProvider,
  extractWWWAuthenticateParams,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import type { AuthProvider, FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';

import type { CredentialSlot } from './credentialSlot.js';
import type { MachineClient } from './types.js';

export interface TransportAuth {
  readonly authProvider: AuthProvider | OAuthClientProvider;
  readonly fetch: FetchLike;
}

export function transportAuth(
  slot: CredentialSlot,
  machine: MachineClient | undefined,
  baseFetch: FetchLike,
): TransportAuth {
  const fetchFn = recordStepUp(slot, baseFetch);
  if (machine) return { authProvider: machineProvider(machine), fetch: fetchFn };
  let sent: string | undefined;
  const provider: AuthProvider = {
    token: async () => {
      sent = await slot.accessToken(baseFetch);
      return sent;
    },
    onUnauthorized: async (ctx) => {
      slot.challenge = challengeOf(ctx.response);
      if (sent === undefined) throw slot.notLoggedIn();
      await slot.refreshAfterRejection(sent, baseFetch);
    },
  };
  return { authProvider: provider, fetch: fetchFn };
}

/** Remember `insufficient_scope` challenges (the response itself passes through unchanged). */
function recordStepUp(slot: CredentialSlot, baseFetch: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === 'insufficient_scope') slot.challenge = challengeOf(response);
      if (error === 'insufficient_scope' && scope) {
        const granted = slot.read()?.scopes.join(' ');
        const union = computeScopeUnion(slot.stepUpScopes.join(' '), granted, scope);
        slot.stepUpScopes = union ? union.split(' ') : [];
      }
    }
    return response;
  };
}

function machineProvider(client: MachineClient): OAuthClientProvider {
  switch (client.kind) {
    case 'client_credentials':
      return new ClientCredentialsProvider({
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        clientName: 'mcprt',
      });
    case 'private_key_jwt':
      return new PrivateKeyJwtProvider({
        clientId: client.clientId,
        privateKey: client.privateKey,
        algorithm: client.algorithm,
        clientName: 'mcprt',
      });
    case 'cross_app_access': {
      const idp = client.identityProvider;
      return new CrossAppAccessProvider({
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        clientName: 'mcprt',
        // SEP-990: trade the IdP's ID token for an ID-JAG at the IdP (RFC 8693), addressed to
        // the MCP server's authorization server and resource; the SDK then redeems it there.
        assertion: async (ctx) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: idp.tokenEndpoint,
              audience: ctx.authorizationServerUrl,
              resource: ctx.resourceUrl,
              idToken: idp.idToken,
              clientId: idp.clientId,
              ...(idp.clientSecret !== undefined ? { clientSecret: idp.clientSecret } : {}),
              ...(ctx.scope !== undefined ? { scope: ctx.scope } : {}),
              fetchFn: ctx.fetchFn,
            })
          ).jwtAuthGrant,
      });
    }
  }
}

function challengeOf(response: Response): { resourceMetadataUrl?: URL; scope?: string } {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}
