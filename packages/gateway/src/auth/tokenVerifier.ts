/**
 * Verifies one JWT access token with jose (`jwtVerify`; nothing hand-rolled): an asymmetric
 * signature by one of the issuer's keys (so `alg: none` and HMAC tokens — whose secret an
 * attacker may guess — are refused before any key is looked up), `iss` the issuer, `aud`
 * containing the resource (RFC 8707), `exp` present and not past, `nbf` and `iat` not in the
 * future, all within the clock skew; `typ` `at+jwt` (RFC 9068), `JWT` or absent; no `cnf` — a
 * token bound to a key (DPoP, mTLS) would be a bearer token here, its binding unchecked, so it is
 * refused rather than downgraded (RFC 9449 §7.2). A refusal is a
 * {@link TokenRejectedError}: a `code` and a short fixed description, never a claim value or the
 * token's text.
 */

import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions, KeyInput } from 'jose';

/** Asymmetric JWS algorithms only. */
export const ACCEPTED_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

const ACCEPTED_TYPES = new Set(['at+jwt', 'jwt']);

export type TokenRejectionCode =
  | 'malformed'
  | 'algorithm'
  | 'type'
  | 'expired'
  | 'not_yet_valid'
  | 'issued_in_future'
  | 'audience'
  | 'issuer'
  | 'no_expiry'
  | 'bound'
  | 'claims'
  | 'signature'
  | 'unknown_key'
  | 'keys_unavailable';

const DESCRIPTIONS: Readonly<Record<TokenRejectionCode, string>> = {
  malformed: 'the token is malformed',
  algorithm: "the token's signing algorithm is not accepted",
  type: 'the token is not an access token',
  expired: 'the token has expired',
  not_yet_valid: 'the token is not valid yet',
  issued_in_future: 'the token was issued in the future',
  audience: 'the token is not for this resource',
  issuer: 'the token was not issued by the expected authorization server',
  no_expiry: 'the token has no expiry',
  bound: 'the token is bound to a key (DPoP or mTLS), which this gateway does not check',
  claims: "the token's claims are invalid",
  signature: "the token's signature is invalid",
  unknown_key: "the token's signing key is unknown",
  keys_unavailable: "the authorization server's keys could not be fetched",
};

export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  /** The fixed, client-safe text (`error_description`). */
  readonly description: string;

  /** `cause`: for `keys_unavailable`, why (for the operator's log; it holds no token). */
  constructor(
    readonly code: TokenRejectionCode,
    options?: ErrorOptions,
  ) {
    super(DESCRIPTIONS[code], options);
    this.description = DESCRIPTIONS[code];
  }
}

export interface VerifyOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly clockSkewSec: number;
  /** Injected clock for tests (default: now). */
  readonly now?: () => Date;
}

/** Checks a token's header before any key is fetched: malformed, algorithm, `typ`. */
export function checkHeader(token: string): void {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new TokenRejectedError('malformed');
  }
  if (token.split('.').length !== 3) throw new TokenRejectedError('malformed');
  if (typeof header.alg !== 'string' || !ACCEPTED_ALGORITHMS.includes(header.alg)) {
    throw new TokenRejectedError('algorithm');
  }
  if (header.typ !== undefined) {
    const typ = String(header.typ)
      .toLowerCase()
      .replace(/^application\//, '');
    if (!ACCEPTED_TYPES.has(typ)) throw new TokenRejectedError('type');
  }
}

/** The verified claims; throws {@link TokenRejectedError}. */
export async function verifyAccessToken(
  token: string,
  keys: JWTVerifyGetKey,
  options: VerifyOptions,
): Promise<JWTPayload> {
  checkHeader(token);
  const now = options.now?.() ?? new Date();
  const verifyOptions: JWTVerifyOptions = {
    algorithms: [...ACCEPTED_ALGORITHMS],
    issuer: options.issuer,
    audience: options.audience,
    requiredClaims: ['exp'],
    clockTolerance: options.clockSkewSec,
    currentDate: now,
  };
  let payload: JWTPayload;
  try {
    payload = (await jwtVerify(token, keys, verifyOptions)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw rejection(error);
    payload = await verifyWithAnyOf(token, error, verifyOptions);
  }
  if (payload['cnf'] !== undefined) throw new TokenRejectedError('bound');
  const iat = payload.iat;
  if (iat !== undefined && iat > now.getTime() / 1000 + options.clockSkewSec) {
    throw new TokenRejectedError('issued_in_future');
  }
  return payload;
}

/** A token without `kid` matching several keys: the first key its signature verifies with. */
async function verifyWithAnyOf(
  token: string,
  candidates: errors.JWKSMultipleMatchingKeys,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  for await (const key of candidates as unknown as AsyncIterable<KeyInput>) {
    try {
      return (await jwtVerify(token, key, options)).payload;
    } catch (error) {
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      throw rejection(error);
    }
  }
  throw new TokenRejectedError('signature');
}

/** A jose failure as a {@link TokenRejectedError}. */
function rejection(error: unknown): TokenRejectedError {
  if (error instanceof TokenRejectedError) return error;
  if (error instanceof errors.JWTExpired) return new TokenRejectedError('expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return new TokenRejectedError('audience');
    if (error.claim === 'iss') return new TokenRejectedError('issuer');
    if (error.claim === 'nbf') return new TokenRejectedError('not_yet_valid');
    if (error.claim === 'exp' && error.reason === 'missing') {
      return new TokenRejectedError('no_expiry');
    }
    return new TokenRejectedError('claims');
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new TokenRejectedError('algorithm');
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new TokenRejectedError('signature');
  }
  if (error instanceof errors.JWKSNoMatchingKey) return new TokenRejectedError('unknown_key');
  if (error instanceof errors.JOSENotSupported) return new TokenRejectedError('algorithm');
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new TokenRejectedError('malformed');
  }
  // The key set could not be fetched: a timeout, a network error, a non-200, bad JSON.
  return new TokenRejectedError('keys_unavailable', { cause: error });
}
