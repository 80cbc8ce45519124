/**
 * The validated shape of `[serve.auth]` and `[[serve.policies]]` (docs/gateway.md, "Running it
 * for a team"): how `mcprt serve` over HTTP identifies its callers, and which view and
 * environments each caller may list and call. Parsing lives in `serveAuth.ts` and
 * `servePolicies.ts`; the gateway applies them.
 */

import type { ConfigLocation } from './types.js';

/** `mode`: `token` (one static bearer token, loopback) or `oauth` (JWT access tokens). */
export type ServeAuthMode = 'token' | 'oauth';

export const SERVE_AUTH_MODES: readonly ServeAuthMode[] = ['token', 'oauth'];

/** `[serve.auth]` with `mode = "oauth"`: the gateway as an OAuth resource server. */
export interface ServeOAuthConfig {
  /**
   * `issuer`: the authorization server's issuer URL (its metadata names the JWKS). Kept as
   * written: compared text for text with the metadata's `issuer` and every token's `iss`.
   */
  readonly issuer: string;
  /**
   * `resource`: the gateway's resource URI, the `aud` every token must carry (RFC 8707). null:
   * the URL the gateway listens on (`…/mcp`).
   */
  readonly resource: string | null;
  /** `scopes`: scopes every token must carry (403 `insufficient_scope` naming the missing ones). */
  readonly scopes: readonly string[];
  /** `groups_claim`: the claim whose string or string array holds the caller's groups. */
  readonly groupsClaim: string;
  /** `clock_skew_sec`: tolerance for `exp`/`nbf`/`iat` (0–300). */
  readonly clockSkewSec: number;
  /** `jwks_uri`: overrides the one the issuer's metadata names. */
  readonly jwksUri: string | null;
}

export interface ServeAuthConfig {
  readonly mode: ServeAuthMode;
  /** Present exactly when `mode` is `oauth`. */
  readonly oauth: ServeOAuthConfig | null;
  /** Where `[serve.auth]` is (null: absent, the defaults). */
  readonly location: ConfigLocation | null;
}

export const DEFAULT_GROUPS_CLAIM = 'groups';
export const DEFAULT_CLOCK_SKEW_SEC = 60;

export const DEFAULT_SERVE_AUTH: ServeAuthConfig = { mode: 'token', oauth: null, location: null };

/**
 * One `[[serve.policies]]` entry. A caller matches when every condition present holds (a list
 * holds when any of its values does; `*`/`?` globs as in views); the first matching entry, in
 * file order, decides. With no entries every caller gets the gateway's own view and
 * environments; with entries, a caller no entry matches gets nothing. An empty list matches no
 * caller. A `[[serve.policies]]` list with any problem (an error or an unknown key) is replaced
 * by a single entry whose lists are all empty, so it fails closed: every caller is refused
 * (servePolicies.ts).
 */
export interface ServePolicyConfig {
  /** `name`: shown in refusals and logs. */
  readonly name: string;
  /** `subjects`: patterns over the token's `sub` (null: any). */
  readonly subjects: readonly string[] | null;
  /** `clients`: patterns over the token's `client_id` (else `azp`) (null: any). */
  readonly clients: readonly string[] | null;
  /** `groups`: the caller is in one of these groups (null: any). */
  readonly groups: readonly string[] | null;
  /** `scopes`: the token carries one of these scopes (null: any). */
  readonly scopes: readonly string[] | null;
  /** `view`: the `[views.NAME]` the caller sees (null: the gateway's view). */
  readonly view: string | null;
  /**
   * `environments`: the environments the caller may list and call (`-`: the thread-wide servers;
   * null: all of the gateway's).
   */
  readonly environments: readonly string[] | null;
  readonly location: ConfigLocation;
}
