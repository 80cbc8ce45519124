/**
 * `[serve.auth] mode = "oauth"`: the gateway as an OAuth 2.1 resource server (the MCP
 * authorization spec, server side). Each request's bearer token must be a JWT access token of
 * the configured issuer for the gateway's resource URI (tokenVerifier.ts, keys from jwks.ts)
 * carrying every required scope; the caller is built from its claims (tokenClaims.ts). Refusals
 * are RFC 6750 challenges pointing at the RFC 9728 metadata (bearerChallenge.ts,
 * protectedResourceMetadata.ts), which the listener serves without a token.
 *
 * Nothing here logs or returns a token: refusals carry fixed texts, and the only thing `log`
 * hears is why the authorization server's keys could not be fetched.
 */

import type { ServeOAuthConfig } from '@mcprt/runtime';

import type { AuthOutcome, HttpAuthenticator, PublicDocument } from './authenticator.js';
import {
  bearerChallenge,
  insufficientScope,
  invalidToken,
  readBearer,
  tokenRequired,
} from './bearerChallenge.js';
import { RemoteKeySet } from './jwks.js';
import type { KeySetTiming } from './jwks.js';
import { ProtectedResourceMetadata, resolveResource } from './protectedResourceMetadata.js';
import { callerFromClaims, missingScopes } from './tokenClaims.js';
import { TokenRejectedError, verifyAccessToken } from './tokenVerifier.js';

export interface OAuthAuthenticatorOptions {
  /**
   * The URL the gateway listens on (`http://127.0.0.1:PORT/mcp`), or its public base URL
   * (`https://host:port`, `/mcp` then appended): the resource URI unless `resource` is set.
   */
  readonly listenUrl: string;
  /** Told why the authorization server's keys could not be fetched (never a token). */
  readonly log?: (message: string) => void;
  /** Cache, cooldown and retry timings of the authorization server's keys (jwks.ts). */
  readonly keys?: KeySetTiming;
  /** The clock tokens are checked against (tests; default: now). */
  readonly now?: () => Date;
}

/** A config the resource server cannot work with (the config parser lets none through). */
export class OAuthConfigError extends Error {
  override readonly name = 'OAuthConfigError';
  readonly code = 'invalid_oauth_config';
}

export class OAuthResourceServer implements HttpAuthenticator {
  /** The resource URI every token's `aud` must contain. */
  readonly resource: string;
  /** The absolute URL of the protected-resource metadata (`resource_metadata`). */
  readonly metadataUrl: string;
  private readonly metadata: ProtectedResourceMetadata;
  private readonly keys: RemoteKeySet;

  constructor(
    private readonly config: ServeOAuthConfig,
    private readonly options: OAuthAuthenticatorOptions,
  ) {
    try {
      new URL(config.issuer);
      this.resource = resolveResource(config.resource, options.listenUrl);
      this.metadata = new ProtectedResourceMetadata({
        resource: this.resource,
        issuer: config.issuer,
        scopes: config.scopes,
      });
      this.metadataUrl = this.metadata.url;
      // Every challenge this server sends is made of these: check once that they need no escaping.
      bearerChallenge({ scope: config.scopes.join(' '), resourceMetadata: this.metadataUrl });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new OAuthConfigError(`[serve.auth] cannot be used: ${reason}`, { cause: error });
    }
    this.keys = new RemoteKeySet(config.issuer, config.jwksUri, options.keys, options.log);
  }

  async authenticate(authorization: string | undefined): Promise<AuthOutcome> {
    const credential = readBearer(authorization);
    if (credential.kind === 'none') return tokenRequired(this.metadataUrl);
    if (credential.kind === 'malformed') {
      return invalidToken(this.metadataUrl, new TokenRejectedError('malformed').description);
    }
    try {
      const claims = await verifyAccessToken(credential.token, this.keys.getKey, {
        issuer: this.config.issuer,
        audience: this.resource,
        clockSkewSec: this.config.clockSkewSec,
        ...(this.options.now ? { now: this.options.now } : {}),
      });
      const caller = callerFromClaims(claims, this.config.groupsClaim);
      const missing = missingScopes(caller, this.config.scopes);
      if (missing.length === 0) return { ok: true, caller };
      return insufficientScope(this.metadataUrl, this.config.scopes, missing);
    } catch (error) {
      if (!(error instanceof TokenRejectedError)) throw error;
      return invalidToken(this.metadataUrl, error.description);
    }
  }

  publicDocument(path: string): PublicDocument | null {
    return this.metadata.publicDocument(path);
  }
}

/** The authenticator for `[serve.auth] mode = "oauth"`. */
export function createOAuthAuthenticator(
  config: ServeOAuthConfig,
  options: OAuthAuthenticatorOptions,
): OAuthResourceServer {
  return new OAuthResourceServer(config, options);
}
