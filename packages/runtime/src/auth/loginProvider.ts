/**
 * The SDK `OAuthClientProvider` for one interactive login: everything the SDK's `auth()` needs
 * to discover (RFC 9728 → RFC 8414/OIDC), register (pre-registered client, CIMD or DCR), build
 * the PKCE authorization request with RFC 8707 `resource`, and redeem the code. It holds the
 * flow's state in memory; the login stores the result once the code is redeemed. It never
 * opens anything itself: the authorization URL is handed to whoever drives the login.
 */

import type {
  DpopSession,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

import type { DpopSetting } from '../config/types.js';
import { chooseDpopAlgorithm, newStoredDpopKey } from './dpop.js';
import type { StoredDpopKey } from './dpop.js';
import { OAuthLoginError } from './errors.js';
import type { ClientRegistrationMode } from './types.js';

export interface LoginProviderOptions {
  readonly redirectUri: string;
  readonly registration: ClientRegistrationMode;
  /** A pre-registered client (`oauth.client_id`, or one the host supplies with its secret). */
  readonly preRegistered?: { clientId: string; clientSecret?: string; issuer?: string };
  readonly clientMetadataUrl?: string;
  /** `scopes = []` in config: send no `scope` at all (never replaced by discovered ones). */
  readonly omitScope: boolean;
  /** `oauth_resource`: the RFC 8707 resource to request instead of the discovered one. */
  readonly resource?: string;
  readonly serverLabel: string;
  /** The `state` the callback must echo. */
  readonly state: string;
  /** `oauth.dpop`; `challengedDpop`: the server's challenge used the `DPoP` scheme. */
  readonly dpop: DpopSetting;
  readonly challengedDpop: () => boolean;
}

export class LoginProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  discovery: OAuthDiscoveryState | undefined;
  resource: string | undefined;
  clientMetadataUrl?: string;
  validateResourceURL?: (serverUrl: string | URL, resource?: string) => Promise<URL | undefined>;
  /** The DPoP key the tokens are bound to (stored with them), once one was made. */
  dpopKey: StoredDpopKey | undefined;
  private dpopChoice: Promise<DpopSession | undefined> | undefined;
  private verifier = '';

  constructor(private readonly options: LoginProviderOptions) {
    if (options.preRegistered) {
      this.client = {
        client_id: options.preRegistered.clientId,
        ...(options.preRegistered.clientSecret !== undefined
          ? { client_secret: options.preRegistered.clientSecret }
          : {}),
        // SEP-2352: the client (its secret) is used with this authorization server only.
        ...(options.preRegistered.issuer !== undefined
          ? { issuer: options.preRegistered.issuer }
          : {}),
      };
    } else if (options.registration !== 'dcr' && options.clientMetadataUrl !== undefined) {
      this.clientMetadataUrl = options.clientMetadataUrl;
    } else if (options.registration === 'cimd') {
      throw new OAuthLoginError(
        `cannot log in to MCP server \`${options.serverLabel}\` with a client ID metadata document: none is configured`,
      );
    }
    const resource = options.resource;
    if (resource !== undefined) this.validateResourceURL = async () => new URL(resource);
  }

  state(): string {
    return this.options.state;
  }

  get redirectUrl(): string {
    return this.options.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'mcprt',
      redirect_uris: [this.options.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    if (this.options.omitScope) url.searchParams.delete('scope');
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const supportsCimd = state.authorizationServerMetadata?.client_id_metadata_document_supported;
    if (this.options.registration === 'cimd' && !this.client && supportsCimd !== true) {
      throw new OAuthLoginError(
        `the authorization server of MCP server \`${this.options.serverLabel}\` does not support client ID metadata documents (clientRegistration \`cimd\`)`,
      );
    }
    this.discovery = state;
    // `required` without support fails before anyone is sent to the authorization page.
    if (this.options.dpop === 'required') this.dpopAlgorithm();
  }

  private dpopAlgorithm() {
    return chooseDpopAlgorithm(
      this.options.dpop,
      { challenged: this.options.challengedDpop(), discovery: this.discovery },
      this.options.serverLabel,
    );
  }

  /** RFC 9449: the SDK signs the token request (and later refreshes) with this key. */
  dpop(): Promise<DpopSession | undefined> | undefined {
    if (this.discovery === undefined) return undefined;
    this.dpopChoice ??= (async () => {
      const alg = this.dpopAlgorithm();
      if (alg === null) return undefined;
      const { session, stored } = await newStoredDpopKey(alg);
      this.dpopKey = stored;
      return session;
    })();
    return this.dpopChoice;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }
}
