/**
 * The RFC 6750 side of the OAuth resource server: reading the bearer token out of an
 * `Authorization` header, and the refusals (`401` / `403` with a `WWW-Authenticate: Bearer …`
 * challenge carrying RFC 9728's `resource_metadata`). Kept apart so that every refusal is built
 * in one place from fixed texts: a challenge or body never repeats the presented token or a
 * claim value, and every parameter value is checked to need no escaping.
 */

import type { AuthOutcome } from './authenticator.js';

/** Tokens longer than this are refused unread (no JWT access token comes near it). */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** RFC 6750 `b64token`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What an `Authorization` header holds, as far as a bearer resource server cares. */
export type BearerCredential =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'token'; readonly token: string };

/** `Bearer <token>` (scheme case-insensitive); another scheme or none counts as no token. */
export function readBearer(authorization: string | undefined): BearerCredential {
  if (authorization === undefined) return { kind: 'none' };
  const match = /^\s*bearer(?:\s+(.*?))?\s*$/is.exec(authorization);
  if (match === null) return { kind: 'none' };
  const token = match[1] ?? '';
  if (token === '') return { kind: 'none' };
  if (token.length > MAX_TOKEN_LENGTH || !B64TOKEN.test(token)) return { kind: 'malformed' };
  return { kind: 'token', token };
}

/** Values that go in a quoted-string as they are (no `"`, `\` or control characters). */
const QUOTABLE = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;

export interface ChallengeParams {
  readonly error?: 'invalid_token' | 'insufficient_scope';
  readonly errorDescription?: string;
  readonly scope?: string;
  readonly resourceMetadata: string;
}

/** `Bearer error="…", error_description="…", scope="…", resource_metadata="…"` (those present). */
export function bearerChallenge(params: ChallengeParams): string {
  const parts: [string, string | undefined][] = [
    ['error', params.error],
    ['error_description', params.errorDescription],
    ['scope', params.scope],
    ['resource_metadata', params.resourceMetadata],
  ];
  const rendered = parts
    .filter((part): part is [string, string] => part[1] !== undefined)
    .map(([name, value]) => {
      if (!QUOTABLE.test(value)) throw new TypeError(`challenge parameter ${name} needs escaping`);
      return `${name}="${value}"`;
    });
  return `Bearer ${rendered.join(', ')}`;
}

function refusal(
  status: 401 | 403,
  challenge: string,
  body: Record<string, string>,
): Extract<AuthOutcome, { ok: false }> {
  return {
    ok: false,
    status,
    headers: { 'www-authenticate': challenge, 'content-type': 'application/json' },
    body: `${JSON.stringify(body)}\n`,
  };
}

/** 401 without an error code: no token was presented (RFC 6750 §3.1). */
export function tokenRequired(resourceMetadata: string): Extract<AuthOutcome, { ok: false }> {
  return refusal(401, bearerChallenge({ resourceMetadata }), {
    error: 'unauthorized',
    error_description: 'a bearer token is required',
  });
}

/** 401 `invalid_token` with a fixed description (never the token or a claim value). */
export function invalidToken(
  resourceMetadata: string,
  description: string,
): Extract<AuthOutcome, { ok: false }> {
  const challenge = bearerChallenge({
    error: 'invalid_token',
    errorDescription: description,
    resourceMetadata,
  });
  return refusal(401, challenge, { error: 'invalid_token', error_description: description });
}

/** 403 `insufficient_scope`: `scope` lists every required scope, the body the missing ones. */
export function insufficientScope(
  resourceMetadata: string,
  required: readonly string[],
  missing: readonly string[],
): Extract<AuthOutcome, { ok: false }> {
  const scope = required.join(' ');
  const description = `the token lacks the required scope${missing.length === 1 ? '' : 's'}: ${missing.join(' ')}`;
  return refusal(403, bearerChallenge({ error: 'insufficient_scope', scope, resourceMetadata }), {
    error: 'insufficient_scope',
    error_description: description,
    scope,
  });
}
