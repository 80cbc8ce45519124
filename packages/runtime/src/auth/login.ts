/**
 * One interactive OAuth login of one registration, driven by the SDK's `auth()`: open the
 * callback listener, probe the server for its `WWW-Authenticate` challenge (RFC 9728
 * `resource_metadata`, `scope`), resolve scopes (explicit > step-up > configured, even empty >
 * discovered), run discovery + client registration + the PKCE authorization request, then wait
 * for the redirect (loopback or pasted), check `state`, redeem the code (RFC 9207 `iss` checked
 * by the SDK) and store the credentials. Nothing is stored unless the whole flow succeeds.
 */

import { randomBytes, randomUUID } from 'node:crypto';

import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  IssuerMismatchError,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/client';
import type { AuthOptions, FetchLike } from '@modelcontextprotocol/client';

import type { DpopSetting, ServerConfig } from '../config/types.js';
import { scopeLabel } from '../scope.js';
import { CallbackListener } from './callbackListener.js';
import { describeError } from './credentialSlot.js';
import type { CredentialChallenge, CredentialSlot } from './credentialSlot.js';
import { OAuthLoginError } from './errors.js';
import { LoginProvider } from './loginProvider.js';
import { providerText } from './providerText.js';
import { challengeOf } from './transportAuth.js';
import type { StoredCredential } from './store/types.js';
import type { ClientRegistrationMode, OAuthLoginResult, PendingOAuthLogin } from './types.js';

export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

export interface LoginParams {
  readonly config: ServerConfig;
  readonly slot: CredentialSlot;
  readonly fetchFn: FetchLike;
  /** Static headers of the server (sent with the probe). */
  readonly headers: Record<string, string>;
  readonly explicitScopes?: readonly string[];
  readonly registration: ClientRegistrationMode;
  readonly preRegistered?: { clientId: string; clientSecret?: string; issuer?: string };
  readonly clientMetadataUrl?: string;
  /** `oauth.dpop`. */
  readonly dpop: DpopSetting;
  readonly callbackPort: number | null;
  readonly callbackUrl: string | null;
  readonly timeoutMs: number;
  readonly now: () => number;
  /** Persist the result (the manager stores it and tells running sessions). */
  readonly save: (record: StoredCredential) => Promise<void>;
}

/** Scope resolution: explicit > step-up > configured (`[]` means none) > discovered. */
export function resolveScopes(
  explicit: readonly string[] | undefined,
  stepUp: readonly string[],
  configured: readonly string[] | null,
): { scope: string | undefined; omitScope: boolean } {
  if (explicit && explicit.length > 0) return { scope: explicit.join(' '), omitScope: false };
  if (stepUp.length > 0) return { scope: stepUp.join(' '), omitScope: false };
  if (configured !== null) {
    return configured.length > 0
      ? { scope: configured.join(' '), omitScope: false }
      : { scope: undefined, omitScope: true };
  }
  return { scope: undefined, omitScope: false };
}

export async function startLogin(params: LoginParams): Promise<PendingOAuthLogin> {
  const { config, slot, fetchFn } = params;
  const label = scopeLabel(config.scope);
  if (config.transport.type !== 'streamable_http') {
    throw new OAuthLoginError('OAuth login is only supported for streamable HTTP servers.');
  }
  const serverUrl = config.transport.url;
  const callbackUrl = parseCallbackUrl(params.callbackUrl);
  const resolved = resolveScopes(params.explicitScopes, slot.stepUpScopes, config.scopes);
  const state = randomBytes(24).toString('base64url');
  const listener = new CallbackListener(state, callbackUrl, params.callbackPort);
  let provider: LoginProvider;
  let resourceMetadataUrl: URL | undefined;
  let scope = resolved.scope;
  let skipIssuer = false;
  let challengedDpop = false;
  try {
    await listener.open();
    provider = new LoginProvider({
      redirectUri: listener.redirectUri,
      registration: params.registration,
      ...(params.preRegistered ? { preRegistered: params.preRegistered } : {}),
      ...(params.clientMetadataUrl !== undefined
        ? { clientMetadataUrl: params.clientMetadataUrl }
        : {}),
      omitScope: resolved.omitScope,
      ...(config.oauthResource !== null ? { resource: config.oauthResource } : {}),
      serverLabel: label,
      state,
      dpop: params.dpop,
      challengedDpop: () => challengedDpop,
    });
    const challenge =
      slot.challenge?.resourceMetadataUrl || slot.challenge?.scope
        ? slot.challenge
        : await probeChallenge(serverUrl, params.headers, fetchFn);
    resourceMetadataUrl = challenge.resourceMetadataUrl;
    challengedDpop = challenge.dpop === true;
    if (scope === undefined && !resolved.omitScope) scope = challenge.scope;
    const options: AuthOptions = {
      serverUrl,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope !== undefined ? { scope } : {}),
      fetchFn,
    };
    let outcome;
    try {
      outcome = await auth(provider, options);
    } catch (error) {
      if (!(await isLegacyIssuerMismatch(error, options))) throw error;
      // 2025-03-26 servers without protected-resource metadata are their own authorization
      // server: the metadata comes from the server's origin, whose `issuer` may carry a path.
      skipIssuer = true;
      outcome = await auth(provider, { ...options, skipIssuerMetadataValidation: true });
    }
    if (outcome !== 'REDIRECT' || !provider.authorizationUrl) {
      throw new OAuthLoginError(`the authorization server did not ask for a login (${outcome})`);
    }
  } catch (error) {
    await listener.close();
    if (error instanceof OAuthLoginError) throw error;
    throw new OAuthLoginError(
      `failed to login to MCP server '${label}': ${providerText(describeError(error))}`,
      {
        cause: error,
      },
    );
  }
  // The SDK does not check `state`; the listener accepts only responses that carry ours.
  const authorizationUrl = provider.authorizationUrl.href;

  const timer = setTimeout(
    () => listener.fail(new OAuthLoginError('timed out waiting for OAuth callback')),
    params.timeoutMs,
  );
  timer.unref();
  const completed = (async (): Promise<OAuthLoginResult> => {
    try {
      const response = await listener.result;
      const result = await auth(provider, {
        serverUrl,
        authorizationCode: response.code,
        ...(response.iss !== undefined ? { iss: response.iss } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        ...(scope !== undefined ? { scope } : {}),
        ...(skipIssuer ? { skipIssuerMetadataValidation: true } : {}),
        fetchFn,
      });
      if (result !== 'AUTHORIZED' || !provider.saved || !provider.client) {
        throw new OAuthLoginError('OAuth provider did not return credentials');
      }
      if (params.dpop === 'required' && provider.saved.token_type?.toLowerCase() !== 'dpop') {
        throw new OAuthLoginError(
          `failed to login to MCP server '${label}': the authorization server issued a ${provider.saved.token_type} token, not a DPoP-bound one (oauth.dpop = "required")`,
        );
      }
      const record = toRecord(config, provider, scope, params.now());
      await params.save(record);
      return { scope: config.scope, scopes: record.scopes };
    } catch (error) {
      if (error instanceof OAuthLoginError) throw error;
      throw new OAuthLoginError(
        `failed to login to MCP server '${label}': ${providerText(describeError(error))}`,
        {
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
      await listener.close();
    }
  })();
  completed.catch(() => undefined);
  return {
    loginId: randomUUID(),
    scope: config.scope,
    authorizationUrl,
    redirectUri: listener.redirectUri,
    completed,
    submitRedirectUrl: (url) => listener.submit(url),
    cancel: () => listener.fail(new OAuthLoginError('OAuth callback was cancelled')),
  };
}

/** An RFC 8414 issuer mismatch for a server that publishes no RFC 9728 metadata. */
async function isLegacyIssuerMismatch(error: unknown, options: AuthOptions): Promise<boolean> {
  if (!IssuerMismatchError.isInstance(error) || error.kind !== 'metadata') return false;
  try {
    await discoverOAuthProtectedResourceMetadata(
      options.serverUrl,
      options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {},
      options.fetchFn,
    );
    return false;
  } catch {
    return true;
  }
}

function parseCallbackUrl(text: string | null): URL | null {
  if (text === null) return null;
  try {
    return new URL(text);
  } catch {
    throw new OAuthLoginError(`invalid OAuth callback URL \`${text}\``);
  }
}

/**
 * An unauthenticated `initialize`: a protected server answers 401 with a `WWW-Authenticate`
 * challenge naming its protected-resource metadata and the scopes it wants. Anything else (no
 * challenge, a network error) leaves discovery to the well-known locations.
 */
async function probeChallenge(
  serverUrl: string,
  headers: Record<string, string>,
  fetchFn: FetchLike,
): Promise<CredentialChallenge> {
  try {
    const response = await fetchFn(serverUrl, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'mcprt', version: '0.1.0' },
        },
      }),
    });
    await response.text().catch(() => undefined);
    if (response.status !== 401 && response.status !== 403) return {};
    return challengeOf(response);
  } catch {
    return {};
  }
}

function toRecord(
  config: ServerConfig,
  provider: LoginProvider,
  requestedScope: string | undefined,
  now: number,
): StoredCredential {
  const tokens = provider.saved!;
  const client = provider.client!;
  const discovery = provider.discovery;
  const granted = tokens.scope ?? requestedScope ?? '';
  return {
    server_name: config.scope.name,
    environment_id: config.scope.environmentId,
    server_url: config.transport.type === 'streamable_http' ? config.transport.url : '',
    client_id: client.client_id,
    client: { ...client },
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    ...(tokens.expires_in !== undefined ? { expires_at: now + tokens.expires_in * 1000 } : {}),
    ...(tokens.refresh_token !== undefined ? { refresh_token: tokens.refresh_token } : {}),
    scopes: granted.split(' ').filter(Boolean),
    ...(tokens.issuer !== undefined ? { issuer: tokens.issuer } : {}),
    ...(discovery
      ? {
          authorization_server_url: discovery.authorizationServerUrl,
          ...(discovery.authorizationServerMetadata
            ? {
                authorization_server_metadata: discovery.authorizationServerMetadata as Record<
                  string,
                  unknown
                >,
              }
            : {}),
        }
      : {}),
    ...(provider.resource !== undefined ? { resource: provider.resource } : {}),
    ...(provider.dpopKey && tokens.token_type?.toLowerCase() === 'dpop'
      ? { dpop_key: provider.dpopKey }
      : {}),
  };
}
