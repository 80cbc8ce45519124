/**
 * From a verified access token's claims to the gateway's {@link Caller}: `sub`, the client
 * (`client_id`, else `azp`), the scopes (`scope`, space-separated, RFC 9068; else `scp`, an
 * array or a string, as some authorization servers write it) and the groups (the configured
 * claim: a string or an array of strings; any other shape counts as no groups, never as a
 * partial list). Only called on claims whose signature, issuer, audience and times were checked.
 */

import type { JWTPayload } from 'jose';

import type { Caller } from '../caller.js';

const words = (value: string): string[] => value.split(' ').filter((word) => word !== '');

const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** The token's scopes, each once. */
export function tokenScopes(claims: JWTPayload): string[] {
  const { scope, scp } = claims as { scope?: unknown; scp?: unknown };
  let scopes: string[] = [];
  if (typeof scope === 'string') scopes = words(scope);
  else if (typeof scp === 'string') scopes = words(scp);
  else if (Array.isArray(scp)) {
    scopes = scp.filter((item): item is string => typeof item === 'string' && item !== '');
  }
  return [...new Set(scopes)];
}

/** The groups claim's values: a string is one group, a string array its groups, else none. */
export function tokenGroups(claims: JWTPayload, groupsClaim: string): string[] {
  const value: unknown = Object.hasOwn(claims, groupsClaim) ? claims[groupsClaim] : undefined;
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return [...new Set(value as string[])];
  }
  return [];
}

/** The OAuth caller the claims describe. */
export function callerFromClaims(claims: JWTPayload, groupsClaim: string): Caller {
  return {
    kind: 'oauth',
    subject: stringOrNull(claims.sub),
    clientId: stringOrNull(claims['client_id']) ?? stringOrNull(claims['azp']),
    scopes: tokenScopes(claims),
    groups: tokenGroups(claims, groupsClaim),
  };
}

/** The required scopes the caller lacks, in configured order. */
export function missingScopes(caller: Caller, required: readonly string[]): string[] {
  const held = new Set(caller.scopes);
  return required.filter((scope) => !held.has(scope));
}
