/**
 * DPoP (RFC 9449, SEP-1932) for one registration, on the SDK's `DpopSession`: whether to bind
 * tokens to a key (`oauth.dpop`: `auto` when both the MCP server and its authorization server
 * say they support it, `required`, `off`), which algorithm (the authorization server's list,
 * ES256 first), and the key itself — generated per login and stored with the tokens it is bound
 * to (a private JWK in the credential store), or kept in memory for machine clients whose tokens
 * live in memory too. The SDK signs every proof (token requests, refreshes, MCP requests) and
 * answers `use_dpop_nonce` challenges.
 */

import {
  DPOP_SUPPORTED_ALGS,
  DpopSession,
  generateDpopKeyPair,
} from '@modelcontextprotocol/client';
import type { DpopAlg, DpopKeyPair, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { JWK } from 'jose';

import type { DpopSetting } from '../config/types.js';
import { McprtError } from '../errors.js';

/**
 * `jose` (62 modules) is loaded on the first DPoP key operation, not with the runtime: most
 * processes (the app-server, the gateway, `mcprt status`) never bind a token to a key.
 */
const jose = () => import('jose');

/** What the servers said about DPoP before the first token request. */
export interface DpopSignals {
  /** The MCP server challenged with the `DPoP` scheme (`WWW-Authenticate: DPoP …`). */
  readonly challenged: boolean;
  readonly discovery: OAuthDiscoveryState | undefined;
}

/** `oauth.dpop = "required"`, but the authorization server cannot bind tokens. */
export class DpopUnsupportedError extends McprtError {
  constructor(server: string) {
    super(
      'oauth_login_failed',
      `the authorization server of MCP server \`${server}\` does not support DPoP (it lists no supported dpop_signing_alg_values_supported), but oauth.dpop = "required"`,
    );
  }
}

/** The stored form of a DPoP key: algorithm and private JWK. */
export interface StoredDpopKey {
  readonly alg: string;
  readonly jwk: Readonly<Record<string, unknown>>;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The algorithm to sign proofs with, or null for plain Bearer tokens. `auto` binds only when the
 * MCP server asks for DPoP (its challenge scheme, or `dpop_bound_access_tokens_required` /
 * `dpop_signing_alg_values_supported` in its RFC 9728 metadata) and the authorization server
 * lists an algorithm we sign with — a token bound for a server that only takes Bearer would be
 * refused by it.
 */
export function chooseDpopAlgorithm(
  setting: DpopSetting,
  signals: DpopSignals,
  server: string,
): DpopAlg | null {
  if (setting === 'off') return null;
  const as = (signals.discovery?.authorizationServerMetadata ?? {}) as Record<string, unknown>;
  const offered = stringList(as['dpop_signing_alg_values_supported']).filter(
    (alg): alg is DpopAlg => (DPOP_SUPPORTED_ALGS as readonly string[]).includes(alg),
  );
  const alg = offered.includes('ES256') ? 'ES256' : offered[0];
  if (setting === 'required') {
    if (alg === undefined) throw new DpopUnsupportedError(server);
    return alg;
  }
  const prm = (signals.discovery?.resourceMetadata ?? {}) as Record<string, unknown>;
  const resourceWants =
    signals.challenged ||
    prm['dpop_bound_access_tokens_required'] === true ||
    stringList(prm['dpop_signing_alg_values_supported']).length > 0;
  return resourceWants && alg !== undefined ? alg : null;
}

/** A new key for a login: its session, and the form stored with the tokens. */
export async function newStoredDpopKey(
  alg: DpopAlg,
): Promise<{ session: DpopSession; stored: StoredDpopKey }> {
  const keyPair = await generateDpopKeyPair({ alg, extractable: true });
  const { exportJWK } = await jose();
  const jwk = await exportJWK(keyPair.privateKey);
  return { session: await DpopSession.create({ keyPair }), stored: { alg, jwk: { ...jwk } } };
}

/** A session for a key kept only in memory (non-extractable). */
export function memoryDpopSession(alg: DpopAlg): Promise<DpopSession> {
  return DpopSession.create({ alg });
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

/** The session of a stored key (the private key imported non-extractable). */
export async function sessionFromStored(stored: StoredDpopKey): Promise<DpopSession> {
  const alg = stored.alg as DpopAlg;
  if (!(DPOP_SUPPORTED_ALGS as readonly string[]).includes(alg))
    throw new TypeError(`unsupported DPoP algorithm ${stored.alg}`);
  const jwk = stored.jwk as JWK;
  const publicJwk: JWK = Object.fromEntries(
    Object.entries(jwk).filter(([k]) => !PRIVATE_MEMBERS.includes(k)),
  );
  const { calculateJwkThumbprint, importJWK } = await jose();
  const privateKey = await importJWK(jwk, alg, { extractable: false });
  const publicKey = await importJWK(publicJwk, alg, { extractable: true });
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array)
    throw new TypeError('a DPoP key must be asymmetric');
  const keyPair: DpopKeyPair = {
    privateKey,
    publicKey,
    publicJwk: publicJwk as DpopKeyPair['publicJwk'],
    thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'),
    alg,
  };
  return DpopSession.create({ keyPair });
}
