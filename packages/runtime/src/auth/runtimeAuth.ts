/**
 * The runtime's OAuth state: the token store chosen by `mcp_oauth_credentials_store`, one
 * `CredentialSlot` per (registration scope, server URL) shared by every session, what each HTTP
 * transport gets for authentication, `authStatus`, login and logout — and the listeners that
 * make a login reach running sessions (their registration of that scope reconnects).
 */

import { Listeners } from '@mcprt/base';
import type { FetchLike } from '@modelcontextprotocol/client';

import type { McprtConfig, OAuthCredentialsStoreMode, ServerConfig } from '../config/types.js';
import type { RegistrationScope } from '../scope.js';
import { scopeLabel } from '../scope.js';
import { credentialStoreKey } from './credentialKey.js';
import { OAuthLoginError } from './errors.js';
import { configuredClient } from './machineClients.js';
import { CredentialSlot } from './credentialSlot.js';
import { DEFAULT_LOGIN_TIMEOUT_MS, startLogin } from './login.js';
import { selectCredentialStore } from './store/selectStore.js';
import type { CredentialStore } from './store/types.js';
import { transportAuth } from './transportAuth.js';
import type { TransportAuth } from './transportAuth.js';
import type {
  AuthStatus,
  HostClient,
  OAuthLoginOptions,
  PendingOAuthLogin,
  RuntimeOAuthOptions,
} from './types.js';

export type CredentialsListener = (scope: RegistrationScope) => void;

export class RuntimeAuth {
  private storeValue: CredentialStore;
  private mode: OAuthCredentialsStoreMode;
  private readonly slots = new Map<string, CredentialSlot>();
  private readonly listeners = new Listeners<[RegistrationScope]>();
  private callback: { port: number | null; url: string | null };
  readonly now: () => number;

  constructor(
    config: McprtConfig,
    private readonly home: string,
    private readonly options: RuntimeOAuthOptions = {},
    /** Where `*_env_var` secrets of `[oauth]` tables are read. */
    private readonly processEnv: NodeJS.ProcessEnv = process.env,
  ) {
    this.now = options.now ?? Date.now;
    this.mode = config.mcpOAuthCredentialsStore;
    this.storeValue = this.openStore();
    this.callback = { port: config.mcpOAuthCallbackPort, url: config.mcpOAuthCallbackUrl };
    // With HTTP servers configured, decide the store now (its probe is off the first call's
    // path); `auto`'s fallback warning waits for the first credential used (selectStore.ts).
    if (config.servers.some((s) => s.transport.type === 'streamable_http')) {
      try {
        this.storeValue.prepare?.();
      } catch {
        // reported when the store is used
      }
    }
  }

  get store(): CredentialStore {
    return this.storeValue;
  }

  /** A reloaded config: a changed store mode opens the other store. */
  configure(config: McprtConfig): void {
    this.callback = { port: config.mcpOAuthCallbackPort, url: config.mcpOAuthCallbackUrl };
    if (config.mcpOAuthCredentialsStore === this.mode) return;
    this.mode = config.mcpOAuthCredentialsStore;
    this.storeValue = this.openStore();
    this.slots.clear();
  }

  /** The credential of an HTTP registration (null for stdio). */
  slot(config: ServerConfig): CredentialSlot | null {
    if (config.transport.type !== 'streamable_http') return null;
    const key = credentialStoreKey(config.scope, config.transport.url);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = new CredentialSlot(
        key,
        config.scope,
        config.transport.url,
        this.storeValue,
        this.now,
        () => this.notify(config.scope),
      );
      this.slots.set(key, slot);
    }
    return slot;
  }

  hostClient(scope: RegistrationScope): HostClient | undefined {
    return this.options.clients?.(scope);
  }

  /**
   * The client of a registration: the host's (library option) first, else the one its `[oauth]`
   * table configures — whose secrets are read now (an `OAuthSecretError` names what is missing).
   */
  clientFor(config: ServerConfig): HostClient | undefined {
    return (
      this.hostClient(config.scope) ??
      configuredClient(config.oauth, this.processEnv, scopeLabel(config.scope))
    );
  }

  /** True when the registration gets tokens without a person (host or config, no secret read). */
  private hasMachineClient(config: ServerConfig): boolean {
    const host = this.hostClient(config.scope);
    if (host !== undefined) return host.kind !== 'pre_registered';
    return config.oauth !== null && config.oauth.grant !== 'authorization_code';
  }

  /**
   * Authentication for one HTTP transport, or null when the server authenticates with a static
   * `Authorization` (bearer token variable or header): that always wins, as in Codex.
   */
  transport(config: ServerConfig, baseFetch: FetchLike): TransportAuth | null {
    if (!mayUseCredentials(config)) return null;
    const slot = this.slot(config);
    if (!slot || hasStaticAuthorization(config)) return null;
    const client = this.hasMachineClient(config) ? this.clientFor(config) : undefined;
    return transportAuth(slot, client?.kind === 'pre_registered' ? undefined : client, baseFetch, {
      dpop: config.oauth?.dpop ?? 'auto',
      server: scopeLabel(config.scope),
    });
  }

  /** Codex's rules, with stored credentials and the connection's own answer. */
  authStatus(config: ServerConfig | null, authenticationRequired: boolean): AuthStatus {
    if (config?.transport.type !== 'streamable_http' || !config.enabled) return 'unsupported';
    if (!mayUseCredentials(config)) return 'unsupported';
    if (hasStaticAuthorization(config)) return 'bearerToken';
    if (this.hasMachineClient(config)) return 'oAuth';
    try {
      if (this.slot(config)?.read()) return 'oAuth';
    } catch {
      return 'notLoggedIn';
    }
    const configured =
      config.scopes !== null || config.oauth !== null || config.oauthResource !== null;
    return authenticationRequired || configured ? 'notLoggedIn' : 'unsupported';
  }

  /** Start a login; the result is stored and announced when the redirect arrives. */
  async login(
    config: ServerConfig,
    options: Omit<OAuthLoginOptions, 'server' | 'environmentId'>,
    fetchFn: FetchLike,
    headers: Record<string, string>,
  ): Promise<PendingOAuthLogin> {
    const slot = this.slot(config);
    // Fail before anyone opens a browser when the store cannot be used (`keyring` without one).
    if (slot) this.storeValue.get(slot.key);
    if (this.hasMachineClient(config)) {
      const grant = config.oauth?.grant ?? 'authorization_code';
      throw new OAuthLoginError(
        `MCP server \`${scopeLabel(config.scope)}\` gets its OAuth tokens without a login (${grant === 'authorization_code' ? 'a machine client supplied by the host' : `oauth.grant = "${grant}"`})`,
        { reason: 'target' },
      );
    }
    const host = this.clientFor(config);
    const preRegistered =
      host?.kind === 'pre_registered'
        ? {
            clientId: host.clientId,
            ...(host.clientSecret !== undefined ? { clientSecret: host.clientSecret } : {}),
            ...(host.issuer !== undefined ? { issuer: host.issuer } : {}),
          }
        : config.oauth?.clientId
          ? {
              clientId: config.oauth.clientId,
              ...(config.oauth.issuer !== null ? { issuer: config.oauth.issuer } : {}),
            }
          : undefined;
    return startLogin({
      config,
      slot: slot!,
      fetchFn,
      headers,
      ...(options.scopes !== undefined ? { explicitScopes: options.scopes } : {}),
      registration: options.clientRegistration ?? 'auto',
      ...(preRegistered ? { preRegistered } : {}),
      ...(this.options.clientMetadataUrl !== undefined
        ? { clientMetadataUrl: this.options.clientMetadataUrl }
        : {}),
      dpop: config.oauth?.dpop ?? 'auto',
      callbackPort: config.oauth?.callbackPort ?? this.callback.port,
      callbackUrl: config.oauth?.callbackUrl ?? this.callback.url,
      timeoutMs: options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS,
      now: this.now,
      save: async (record) => {
        if (!slot) return;
        await this.storeValue.set(slot.key, record);
        slot.stepUpScopes = [];
        this.notify(config.scope);
      },
    });
  }

  /** Remove the stored credentials of a registration; true when there were any. */
  async logout(config: ServerConfig): Promise<boolean> {
    const slot = this.slot(config);
    if (!slot) return false;
    const removed = await this.storeValue.delete(slot.key);
    slot.stepUpScopes = [];
    if (removed) this.notify(config.scope);
    return removed;
  }

  onCredentialsChanged(listener: CredentialsListener): () => void {
    return this.listeners.add(listener);
  }

  notify(scope: RegistrationScope): void {
    this.listeners.emit(scope);
  }

  private openStore(): CredentialStore {
    let warned = false;
    return selectCredentialStore({
      mode: this.mode,
      home: this.home,
      warn: (message) => {
        if (warned) return;
        warned = true;
        (
          this.options.onWarning ??
          ((m: string) => process.emitWarning(m, { code: 'MCPRT_OAUTH_STORE' }))
        )(message);
      },
      ...(this.options.probeKeyring ? { probeKeyring: this.options.probeKeyring } : {}),
    });
  }
}

/**
 * Registrations from an environment's own config (a remote host's) never get this machine's
 * OAuth credentials or host clients, unless that environment is lent them (`remote_allow_oauth`).
 */
function mayUseCredentials(config: ServerConfig): boolean {
  return config.untrusted === undefined || config.untrusted.oauth;
}

/** A bearer-token variable or an `Authorization` header (static or from a variable). */
export function hasStaticAuthorization(config: ServerConfig): boolean {
  if (config.transport.type !== 'streamable_http') return false;
  const t = config.transport;
  return (
    t.bearerTokenEnvVar !== null ||
    [...Object.keys(t.httpHeaders), ...Object.keys(t.envHttpHeaders)].some(
      (h) => h.toLowerCase() === 'authorization',
    )
  );
}
