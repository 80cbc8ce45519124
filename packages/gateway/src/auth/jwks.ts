/**
 * The authorization server's signing keys, resolved lazily: the JWKS URL is the configured
 * `jwks_uri`, else the issuer metadata's (issuerDiscovery.ts), found on the first token rather
 * than at start-up so a gateway can start while its authorization server is down. A failed
 * discovery is not remembered: the next token tries again, though not sooner than
 * `retryAfterMs` after the failure, so a stream of bad tokens cannot turn into a stream of
 * requests to the authorization server. The key set itself is jose's `createRemoteJWKSet`: it
 * caches the keys for `cacheMaxAgeMs`, and refetches them when a token names a key it does not
 * know (the authorization server rotated its keys) — at most once per `cooldownMs`. Failures
 * to discover or fetch are told to `onFailure` (URLs and reasons only), a fetch failure at most
 * once a minute.
 */

import { createRemoteJWKSet, errors } from 'jose';
import type { JWTVerifyGetKey } from 'jose';

import { discoverJwksUri, IssuerDiscoveryError } from './issuerDiscovery.js';

export interface KeySetTiming {
  /** Minimum time between two refetches for an unknown `kid` (default 30 s). */
  readonly cooldownMs?: number;
  /** How long fetched keys are used before they are fetched again (default 10 min). */
  readonly cacheMaxAgeMs?: number;
  /** After a failed discovery, the next one waits at least this long (default 5 s). */
  readonly retryAfterMs?: number;
  /** Per HTTP request to the authorization server (default 5 s). */
  readonly timeoutMs?: number;
}

/** Errors of the key lookup itself; any other error of the key set means no keys. */
const LOOKUP_ERRORS = [
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSENotSupported,
];
const FETCH_FAILURE_LOG_INTERVAL_MS = 60_000;

export class RemoteKeySet {
  private keySet: Promise<JWTVerifyGetKey> | null = null;
  private failedAt = -Infinity;
  private lastFailure: IssuerDiscoveryError | null = null;
  private fetchFailureLoggedAt = -Infinity;

  constructor(
    private readonly issuer: string,
    private readonly jwksUri: string | null,
    private readonly timing: KeySetTiming = {},
    /** Told of a discovery failure (a message with URLs and reasons; no token). */
    private readonly onFailure: (message: string) => void = () => {},
  ) {}

  /** The key resolver for `jwtVerify`; throws {@link IssuerDiscoveryError} when discovery fails. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const keySet = await this.get();
    try {
      return await keySet(header, token);
    } catch (error) {
      if (!LOOKUP_ERRORS.some((type) => error instanceof type)) this.fetchFailed(error);
      throw error;
    }
  };

  private fetchFailed(error: unknown): void {
    if (Date.now() - this.fetchFailureLoggedAt < FETCH_FAILURE_LOG_INTERVAL_MS) return;
    this.fetchFailureLoggedAt = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.onFailure(`cannot fetch the signing keys of ${this.issuer}: ${reason}`);
  }

  private async get(): Promise<JWTVerifyGetKey> {
    if (this.keySet === null) {
      const retryAfter = this.timing.retryAfterMs ?? 5000;
      if (this.lastFailure !== null && Date.now() - this.failedAt < retryAfter) {
        throw this.lastFailure;
      }
      this.keySet = this.resolve();
      this.keySet.catch((error: unknown) => {
        this.keySet = null;
        this.failedAt = Date.now();
        this.lastFailure =
          error instanceof IssuerDiscoveryError ? error : new IssuerDiscoveryError(String(error));
        this.onFailure(this.lastFailure.message);
      });
    }
    return this.keySet;
  }

  private async resolve(): Promise<JWTVerifyGetKey> {
    const timeoutMs = this.timing.timeoutMs ?? 5000;
    const url = this.jwksUri ?? (await discoverJwksUri(this.issuer, { timeoutMs }));
    return createRemoteJWKSet(new URL(url), {
      cooldownDuration: this.timing.cooldownMs ?? 30_000,
      cacheMaxAge: this.timing.cacheMaxAgeMs ?? 10 * 60_000,
      timeoutDuration: timeoutMs,
    });
  }
}
