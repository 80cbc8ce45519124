/**
 * What the streamable-HTTP transport of one registration gets for OAuth: an `authProvider` and a
 * `fetch`. For interactive (authorization-code) credentials the provider is our own minimal
 * `AuthProvider` over the stored credential — `token()` refreshes 30 s before expiry,
 * `onUnauthorized()` refreshes once after an `invalid_token` 401 (the transport then retries
 * once) and otherwise says "not logged in" — so a connection never opens a browser or registers
 * a client; a DPoP-bound credential is presented with the SDK's `withDpop` (the `DPoP` scheme and
 * a fresh proof per request from the stored key). A `403 insufficient_scope` surfaces as the
 * SDK's `InsufficientScopeError`; the fetch wrapper records the scopes asked for, so the next
 * login requests them too (step-up). Machine clients (client credentials, private-key JWT,
 * workload identity, enterprise-managed authorization) use SDK providers, which fetch tokens
 * without a person — DPoP-bound with an in-memory key when `oauth.dpop` says so.
 */

import {
  computeScopeUnion,
  extractWWWAuthenticateParams,
  withDpop,
} from '@modelcontextprotocol/client';
import type {
  AuthProvider,
  DpopSession,
  FetchLike,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from '@modelcontextprotocol/client';

import type { DpopSetting } from '../config/types.js';
import type { CredentialChallenge, CredentialSlot } from './credentialSlot.js';
import { chooseDpopAlgorithm, memoryDpopSession } from './dpop.js';
import { machineProvider } from './machineClients.js';
import type { MachineClient } from './types.js';

export interface TransportAuth {
  readonly authProvider: AuthProvider | OAuthClientProvider;
  readonly fetch: FetchLike;
}

export interface TransportAuthOptions {
  readonly dpop: DpopSetting;
  /** Labels the registration in messages. */
  readonly server: string;
}

export function transportAuth(
  slot: CredentialSlot,
  machine: MachineClient | undefined,
  baseFetch: FetchLike,
  options: TransportAuthOptions,
): TransportAuth {
  const fetchFn = recordChallenges(slot, baseFetch);
  if (machine) {
    const provider = machineProvider(machine, options.server);
    if (options.dpop !== 'off') attachDpop(provider, slot, options);
    return { authProvider: provider, fetch: fetchFn };
  }
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
  // A DPoP-bound credential (stored with its key): `Authorization: DPoP …` plus a proof.
  const dpopFetch = withDpop(
    () => slot.dpopSession(),
    () => slot.dpopBoundToken(),
  )(fetchFn);
  return { authProvider: provider, fetch: dpopFetch };
}

/**
 * Remember the server's challenges: `401` (its `resource_metadata`, scope and scheme — `DPoP`
 * tells `auto` the server takes DPoP-bound tokens) and `insufficient_scope` (the response itself
 * passes through unchanged).
 */
function recordChallenges(slot: CredentialSlot, baseFetch: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (response.status === 401 && response.headers.has('www-authenticate'))
      slot.challenge = challengeOf(response);
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

/**
 * DPoP for a machine client's SDK provider: the decision waits for discovery (the authorization
 * server's algorithms, the server's metadata) and the server's challenge; the key lives in memory
 * with the provider's tokens.
 */
function attachDpop(
  provider: OAuthClientProvider,
  slot: CredentialSlot,
  options: TransportAuthOptions,
): void {
  let discovery: OAuthDiscoveryState | undefined;
  let session: Promise<DpopSession | undefined> | undefined;
  provider.saveDiscoveryState = (state) => {
    discovery = state;
  };
  provider.dpop = () => {
    if (discovery === undefined) return undefined;
    session ??= (async () => {
      const alg = chooseDpopAlgorithm(
        options.dpop,
        { challenged: slot.challenge?.dpop === true, discovery },
        options.server,
      );
      return alg === null ? undefined : memoryDpopSession(alg);
    })();
    return session;
  };
}

export function challengeOf(response: Response): CredentialChallenge {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  const dpop = /(?:^|,)\s*dpop(?:\s|$|,)/i.test(response.headers.get('www-authenticate') ?? '');
  return {
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    ...(scope ? { scope } : {}),
    ...(dpop ? { dpop } : {}),
  };
}
