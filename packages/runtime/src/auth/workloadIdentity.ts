/**
 * SEP-1933 workload identity federation: the workload's own JWT (a Kubernetes projected service
 * account token, a cloud identity token, …), issued for the MCP server's authorization server,
 * is redeemed with the RFC 7523 JWT-bearer grant. An `OAuthClientProvider` for the SDK's `auth()`
 * — discovery, the token request and its client authentication (`none`: `client_id` in the body)
 * are the SDK's; this provider only supplies the grant. The assertion is read for every token
 * request (projected tokens rotate). A refused grant is reported, never retried with the same
 * assertion or another grant (the SDK's `auth()` would otherwise try once more).
 */

import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

import { McprtError } from '../errors.js';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The authorization server refused the workload's assertion; the grant is not retried. */
export class WorkloadIdentityRefusedError extends McprtError {
  constructor(server: string) {
    super(
      'oauth_authorization_required',
      `the authorization server refused the workload identity assertion of MCP server \`${server}\` (JWT-bearer grant); not retrying — check the token the config names (its audience must be the authorization server)`,
    );
  }
}

export interface WorkloadIdentityOptions {
  readonly clientId: string;
  /** The current workload JWT. */
  readonly assertion: () => Promise<string>;
  /** Labels the registration in messages. */
  readonly server: string;
  /** The authorization server the assertion is for: the SDK sends it to no other (SEP-2352). */
  readonly issuer?: string;
}

export class WorkloadIdentityProvider implements OAuthClientProvider {
  private saved: StoredOAuthTokens | undefined;

  constructor(private readonly options: WorkloadIdentityOptions) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'mcprt',
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    return {
      client_id: this.options.clientId,
      ...(this.options.issuer !== undefined ? { issuer: this.options.issuer } : {}),
    };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error('workload identity never redirects to an authorization page');
  }

  saveCodeVerifier(): void {
    // no authorization code flow
  }

  codeVerifier(): string {
    throw new Error('workload identity has no PKCE verifier');
  }

  /**
   * The SDK calls this between a refused grant (`invalid_grant`, `invalid_client`,
   * `unauthorized_client`) and a second attempt: refuse the retry (SEP-1933: surface the error).
   */
  invalidateCredentials(): void {
    this.saved = undefined;
    throw new WorkloadIdentityRefusedError(this.options.server);
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const params = new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion: await this.options.assertion(),
    });
    if (scope) params.set('scope', scope);
    return params;
  }
}
