/**
 * OAuth failures, typed: a login that did not complete, a refresh that failed for a transient
 * reason (credentials kept), a registration that needs a (new) login, and a token store that
 * cannot be read or written. Messages name the server (and environment) and never contain a
 * token value.
 */

import { McprtError } from '../errors.js';

/**
 * A login could not start or did not complete (callback timeout, provider error, …). `target`:
 * the request named no HTTP registration (a caller's mistake); `flow`: the login itself failed.
 */
export class OAuthLoginError extends McprtError {
  readonly reason: 'target' | 'flow';
  constructor(message: string, options?: { cause?: unknown; reason?: 'target' | 'flow' }) {
    super('oauth_login_failed', message, options);
    this.reason = options?.reason ?? 'flow';
  }
}

/**
 * Refreshing the access token failed for a reason that may pass (network, authorization server
 * down, server error). The stored credentials are untouched; the next use tries again.
 */
export class TokenRefreshError extends McprtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('oauth_refresh_failed', message, options);
  }
}

/** The registration needs a login: none stored, or the authorization server refused them. */
export class AuthorizationRequiredError extends McprtError {
  /** Scopes the server asked for (step-up), when that is why. */
  readonly requiredScopes: readonly string[] | null;
  constructor(message: string, options?: { cause?: unknown; requiredScopes?: readonly string[] }) {
    super('oauth_authorization_required', message, options);
    this.requiredScopes = options?.requiredScopes ?? null;
  }
}

/** The credentials store (keyring or file) cannot be read or written; nothing was changed. */
export class CredentialStoreError extends McprtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('oauth_credentials_store', message, options);
  }
}

/** `mcprt mcp login <name> --environment <id>` (or without the flag for thread-wide ones). */
export function loginCommand(scope: { environmentId: string | null; name: string }): string {
  return scope.environmentId === null
    ? `mcprt mcp login ${scope.name}`
    : `mcprt mcp login ${scope.name} --environment ${scope.environmentId}`;
}
