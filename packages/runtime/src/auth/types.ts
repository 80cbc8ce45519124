/**
 * Public types of the runtime's OAuth support: how a host supplies client credentials that do
 * not belong in `config.toml` (secrets, machine-to-machine clients), the options of a login, and
 * the status a registration's authentication is in.
 */

import type { RegistrationScope } from '../scope.js';

/** Codex's `authStatus`: how a registration authenticates. */
export type AuthStatus = 'unsupported' | 'notLoggedIn' | 'bearerToken' | 'oAuth';

/** A secret given directly, or read when needed (a rotating file, a fresh ID token). */
export type SecretValue = string | (() => string | Promise<string>);

/**
 * Clients that get tokens without a person (extensions of the MCP authorization spec):
 * `client_credentials` with a client secret (HTTP Basic) or a private-key JWT, SEP-1933
 * workload identity (the workload's own JWT redeemed with the RFC 7523 JWT-bearer grant), and
 * SEP-990 enterprise-managed authorization / cross-app access (an enterprise IdP's ID token
 * traded for an ID-JAG). The same clients can be configured in `config.toml` (`oauth.grant`),
 * naming where each secret is read.
 */
export type MachineClient = MachineClientKind & {
  /**
   * The authorization server's issuer these credentials belong to: they are sent to no other
   * (SEP-2352). Without it, the MCP server's metadata decides where they go.
   */
  readonly issuer?: string;
};

type MachineClientKind =
  | {
      readonly kind: 'client_credentials';
      readonly clientId: string;
      readonly clientSecret: string;
    }
  | {
      readonly kind: 'private_key_jwt';
      readonly clientId: string;
      /** PEM (PKCS#8), or a JWK object. */
      readonly privateKey: string | Record<string, unknown>;
      /** e.g. `ES256`, `RS256`. */
      readonly algorithm: string;
    }
  | {
      readonly kind: 'workload_identity';
      readonly clientId: string;
      /** The workload's JWT (its audience is the authorization server); read per token request. */
      readonly assertion: SecretValue;
    }
  | {
      readonly kind: 'cross_app_access';
      readonly clientId: string;
      readonly clientSecret: string;
      readonly identityProvider: {
        /** The IdP's token endpoint; or `issuer`, whose metadata names it. */
        readonly tokenEndpoint?: string;
        readonly issuer?: string;
        readonly clientId: string;
        readonly clientSecret?: string;
        readonly idToken: SecretValue;
      };
    };

/** A pre-registered confidential client for the authorization-code login. */
export interface PreRegisteredClient {
  readonly kind: 'pre_registered';
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The authorization server's issuer the client is registered with (SEP-2352). */
  readonly issuer?: string;
}

export type HostClient = MachineClient | PreRegisteredClient;

export interface RuntimeOAuthOptions {
  /**
   * Client ID metadata document URL (an https URL whose document lists mcprt's redirect URIs).
   * With one, `auto` registration prefers CIMD when the authorization server supports it.
   */
  readonly clientMetadataUrl?: string;
  /** Client credentials the host supplies per registration (never read from config.toml). */
  readonly clients?: (scope: RegistrationScope) => HostClient | undefined;
  /** Where `auto` reports that it fell back to the file store (default: `process.emitWarning`). */
  readonly onWarning?: (message: string) => void;
  /** Clock seam for token expiry (default `Date.now`). */
  readonly now?: () => number;
  /** Test seam: whether the keyring works (default: probe it). */
  readonly probeKeyring?: () => string | null;
}

export type ClientRegistrationMode = 'auto' | 'cimd' | 'dcr';

export interface OAuthLoginOptions {
  readonly server: string;
  /** Registration scope selector (omitted: the thread-wide registration, else the first environment's). */
  readonly environmentId?: string | null;
  /** Explicit scopes; win over step-up, configured and discovered ones. */
  readonly scopes?: readonly string[];
  readonly clientRegistration?: ClientRegistrationMode;
  /** How long to wait for the callback (default 300 s). */
  readonly timeoutMs?: number;
}

export interface OAuthLoginResult {
  readonly scope: RegistrationScope;
  readonly scopes: readonly string[];
}

/** A login in progress: open `authorizationUrl` in a browser, then await `completed`. */
export interface PendingOAuthLogin {
  readonly loginId: string;
  readonly scope: RegistrationScope;
  readonly authorizationUrl: string;
  readonly redirectUri: string;
  /** Resolves when the tokens are stored; rejects with an `OAuthLoginError` otherwise. */
  readonly completed: Promise<OAuthLoginResult>;
  /**
   * Complete with the URL the browser was redirected to (pasted by a person). False when the
   * text is not this login's redirect (it needs `code` and the matching `state`): keep waiting.
   */
  submitRedirectUrl(url: string): boolean;
  cancel(): void;
}
