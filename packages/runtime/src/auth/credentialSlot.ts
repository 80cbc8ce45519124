/**
 * One stored credential (registration scope + server URL) as connections use it: the current
 * access token, refreshed with the SDK's `refreshAuthorization` when it expires within 30 s or
 * when the server rejects it. A refresh is single-flight per credential (concurrent requests and
 * connections of every session share one), re-reads the store first (another process may have
 * refreshed already), and never deletes anything: a transient failure is a `TokenRefreshError`
 * and the credentials stay stored; a refusal by the authorization server (`invalid_grant`, …)
 * is an `AuthorizationRequiredError` — a new login replaces them.
 */

import { OAuthError, refreshAuthorization } from '@modelcontextprotocol/client';
import type {
  DpopSession,
  FetchLike,
  OAuthClientInformationMixed,
} from '@modelcontextprotocol/client';

import type { RegistrationScope } from '../scope.js';
import { scopeLabel } from '../scope.js';
import { sessionFromStored } from './dpop.js';
import { AuthorizationRequiredError, loginCommand, TokenRefreshError } from './errors.js';
import { redactSecrets, secretsOf } from './store/types.js';
import type { CredentialStore, StoredCredential } from './store/types.js';

/** Refresh when the access token expires within this margin. */
export const REFRESH_MARGIN_MS = 30_000;

/** The server's last `WWW-Authenticate` challenge (`dpop`: it used the `DPoP` scheme). */
export interface CredentialChallenge {
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
  readonly dpop?: boolean;
}

/** OAuth errors after which a refresh can never succeed: the user must log in again. */
const FATAL_REFRESH_ERRORS = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client']);

export class CredentialSlot {
  private inflight: Promise<StoredCredential> | null = null;
  /** Scopes a server asked for with `insufficient_scope`; the next login adds them. */
  stepUpScopes: string[] = [];
  /** The server's last `WWW-Authenticate` challenge (a login starts discovery from it). */
  challenge: CredentialChallenge | null = null;
  /** The DPoP session of the stored key, by the key's public part. */
  private dpopCache: { id: string; session: Promise<DpopSession> } | null = null;

  constructor(
    readonly key: string,
    readonly scope: RegistrationScope,
    readonly serverUrl: string,
    private readonly store: CredentialStore,
    private readonly now: () => number,
    /**
     * Called once when the authorization server refuses a refresh token: running sessions then
     * restart the registration, which becomes `authenticationRequired`.
     */
    private readonly onRefused: () => void = () => undefined,
  ) {}

  /** The refresh token the authorization server refused (not tried again). */
  private refusedToken: string | null = null;

  read(): StoredCredential | null {
    return this.store.get(this.key);
  }

  expiring(record: StoredCredential): boolean {
    return record.expires_at !== undefined && this.now() + REFRESH_MARGIN_MS >= record.expires_at;
  }

  /** The token to send, refreshed first when it is about to expire; undefined when none stored. */
  async accessToken(fetchFn: FetchLike): Promise<string | undefined> {
    const record = this.read();
    if (!record) return undefined;
    if (!this.expiring(record) || !record.refresh_token) return record.access_token;
    return (await this.refresh(record.access_token, fetchFn)).access_token;
  }

  /** The server refused `rejected` (401): refresh unless someone already replaced it. */
  async refreshAfterRejection(rejected: string | undefined, fetchFn: FetchLike): Promise<void> {
    const record = this.read();
    if (!record) throw this.notLoggedIn();
    if (record.access_token !== rejected && !this.expiring(record)) return;
    if (!record.refresh_token) throw this.loginExpired('the server rejected the access token');
    await this.refresh(record.access_token, fetchFn);
  }

  /** The session of the DPoP key the stored tokens are bound to (undefined: Bearer tokens). */
  dpopSession(record: StoredCredential | null = this.read()): Promise<DpopSession> | undefined {
    const stored = record?.dpop_key;
    if (!stored) return undefined;
    const id = `${stored.alg}:${String(stored.jwk['x'] ?? '')}:${String(stored.jwk['n'] ?? '')}`;
    if (this.dpopCache?.id !== id) this.dpopCache = { id, session: sessionFromStored(stored) };
    return this.dpopCache.session;
  }

  /** The stored access token when it is DPoP-bound (presented with the `DPoP` scheme). */
  dpopBoundToken(): string | undefined {
    const record = this.read();
    return record?.dpop_key && record.token_type?.toLowerCase() === 'dpop'
      ? record.access_token
      : undefined;
  }

  notLoggedIn(): AuthorizationRequiredError {
    return new AuthorizationRequiredError(
      `The ${scopeLabel(this.scope)} MCP server is not logged in. Run \`${loginCommand(this.scope)}\`.`,
    );
  }

  private loginExpired(why: string, cause?: unknown): AuthorizationRequiredError {
    return new AuthorizationRequiredError(
      `The OAuth login of MCP server \`${scopeLabel(this.scope)}\` is no longer valid (${why}). Run \`${loginCommand(this.scope)}\`.`,
      cause === undefined ? undefined : { cause },
    );
  }

  private refresh(stale: string, fetchFn: FetchLike): Promise<StoredCredential> {
    this.inflight ??= this.doRefresh(stale, fetchFn).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async doRefresh(stale: string, fetchFn: FetchLike): Promise<StoredCredential> {
    const record = this.read();
    if (!record) throw this.notLoggedIn();
    // Another process (or an earlier refresh) already replaced the token.
    if (record.access_token !== stale && !this.expiring(record)) return record;
    if (!record.refresh_token) throw this.loginExpired('it has expired and has no refresh token');
    if (record.refresh_token === this.refusedToken)
      throw this.loginExpired('the authorization server refused its refresh token');
    const server = record.authorization_server_url ?? record.issuer;
    if (server === undefined) throw this.loginExpired('the authorization server is unknown');
    let tokens;
    try {
      tokens = await refreshAuthorization(server, {
        ...(record.authorization_server_metadata
          ? { metadata: record.authorization_server_metadata as never }
          : {}),
        clientInformation: record.client as OAuthClientInformationMixed,
        refreshToken: record.refresh_token,
        ...(record.resource !== undefined ? { resource: new URL(record.resource) } : {}),
        // A DPoP-bound refresh token is redeemed with a proof from the same key (RFC 9449 §5).
        ...(record.dpop_key ? { dpop: await this.dpopSession(record)! } : {}),
        fetchFn,
      });
    } catch (error) {
      const code = error instanceof OAuthError ? error.code : undefined;
      if (code !== undefined && FATAL_REFRESH_ERRORS.has(code)) {
        this.refusedToken = record.refresh_token;
        // After the failing request has reported its own error.
        setTimeout(() => this.onRefused(), 50);
        throw this.loginExpired(
          `the authorization server answered \`${code}\` to a refresh`,
          error,
        );
      }
      throw new TokenRefreshError(
        `failed to refresh OAuth tokens for server ${scopeLabel(this.scope)}: ${redactSecrets(describeError(error), secretsOf(record))} (the stored credentials were kept)`,
        { cause: error },
      );
    }
    const { expires_at: _previous, ...rest } = record;
    const next: StoredCredential = {
      ...rest,
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      ...(tokens.expires_in !== undefined
        ? { expires_at: this.now() + tokens.expires_in * 1000 }
        : {}),
      refresh_token: tokens.refresh_token ?? record.refresh_token,
      scopes: tokens.scope !== undefined ? tokens.scope.split(' ').filter(Boolean) : record.scopes,
    };
    await this.store.set(this.key, next);
    return next;
  }
}

/** `fetch failed (connect ECONNREFUSED 127.0.0.1:9)`: the error and the cause a person needs. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && !error.message.includes(cause.message)
    ? `${error.message} (${cause.message})`
    : error.message;
}
