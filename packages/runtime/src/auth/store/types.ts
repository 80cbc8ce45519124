/**
 * The token store seam: one JSON record per credential key (see `credentialKey.ts`). Records
 * follow the entry shape of Codex's `.credentials.json` (`server_name`, `server_url`,
 * `client_id`, `access_token`, `expires_at` in epoch ms, `refresh_token`, `scopes`) plus what a
 * refresh needs without another discovery or registration: the full client information (a DCR
 * client's secret included), the authorization server's metadata, the RFC 8707 resource.
 */

export interface StoredCredential {
  readonly server_name: string;
  readonly environment_id: string | null;
  readonly server_url: string;
  readonly client_id: string;
  /** The registered client as the authorization server returned it (secret included). */
  readonly client: Readonly<Record<string, unknown>> & { readonly client_id: string };
  readonly access_token: string;
  readonly token_type?: string;
  /** Epoch milliseconds; absent when the server gave no lifetime. */
  readonly expires_at?: number;
  readonly refresh_token?: string;
  readonly scopes: readonly string[];
  readonly issuer?: string;
  /** Authorization server URL and metadata found at login (reused by refresh). */
  readonly authorization_server_url?: string;
  readonly authorization_server_metadata?: Readonly<Record<string, unknown>>;
  /** The RFC 8707 resource the tokens were issued for. */
  readonly resource?: string;
  /**
   * The DPoP key the tokens are bound to (RFC 9449; `token_type` is then `DPoP`): its algorithm
   * and private JWK. A secret like the refresh token, stored with it and nowhere else.
   */
  readonly dpop_key?: { readonly alg: string; readonly jwk: Readonly<Record<string, unknown>> };
}

export interface CredentialStore {
  /** Human description for messages, e.g. `file /home/me/.mcprt/.credentials.json`. */
  readonly description: string;
  /** Reads never lock: a record is replaced whole (atomically), never seen half-written. */
  get(key: string): StoredCredential | null;
  /** Writes may be asynchronous (the file store waits for its lock without blocking). */
  set(key: string, record: StoredCredential): void | Promise<void>;
  /** True when something was removed. */
  delete(key: string): boolean | Promise<boolean>;
  /** Decide now what an `auto` store uses (its fallback is announced on first use); optional. */
  prepare?(): void;
}

/** Every secret value of a record (for redacting messages that might echo one). */
export function secretsOf(record: StoredCredential | null): string[] {
  if (!record) return [];
  const secret = record.client['client_secret'];
  const dpop = record.dpop_key?.jwk['d'];
  return [
    record.access_token,
    record.refresh_token,
    typeof secret === 'string' ? secret : '',
    typeof dpop === 'string' ? dpop : '',
  ].filter((s): s is string => typeof s === 'string' && s.length >= 8);
}

/** Replace every occurrence of the given secrets in `text`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('[REDACTED]');
  return out;
}
