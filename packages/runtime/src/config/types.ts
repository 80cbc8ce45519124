/**
 * The validated shape of mcprt's `config.toml` (a superset of Codex's `[mcp_servers]`).
 * Parsing and validation live in `load.ts`; everything else in the runtime consumes these types.
 */

import type { RegistrationScope } from '../scope.js';
import type { InvalidViewConfig, ServeConfig, ViewConfig } from './viewTypes.js';

/** Where a diagnostic points: file, 1-based line and column, and the dotted key path. */
export interface ConfigLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Dotted TOML key path, e.g. `mcp_servers.docs.url`. Empty for file-level problems. */
  readonly keyPath: string;
}

export interface ConfigDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly location: ConfigLocation;
  /** The problem alone, e.g. ``url is not supported for stdio``. */
  readonly problem: string;
  /** `file:line:column: keyPath: problem` — what a person reads. */
  readonly message: string;
}

export type EnvVarSource = 'local' | 'remote';

export interface EnvVarRef {
  readonly name: string;
  /** Omitted in config means `local` for local servers and "forwarded" for remote ones. */
  readonly source: EnvVarSource | null;
}

export interface StdioTransportConfig {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly envVars: readonly EnvVarRef[];
  /** As written; may be relative (resolved or rejected per environment at launch). */
  readonly cwd: string | null;
}

export interface StreamableHttpTransportConfig {
  readonly type: 'streamable_http';
  readonly url: string;
  readonly bearerTokenEnvVar: string | null;
  readonly httpHeaders: Readonly<Record<string, string>>;
  /** header name -> environment variable name, read at connect time. */
  readonly envHttpHeaders: Readonly<Record<string, string>>;
}

export type TransportConfig = StdioTransportConfig | StreamableHttpTransportConfig;

/**
 * `protocol_version`: which MCP revision to speak. `auto` probes with `server/discover`
 * (2026-07-28) and falls back to the 2025 `initialize` handshake; a dated revision pins it.
 */
export type ProtocolVersionSetting = 'auto' | '2026-07-28' | '2025-11-25';

export const PROTOCOL_VERSION_SETTINGS: readonly ProtocolVersionSetting[] = [
  'auto',
  '2026-07-28',
  '2025-11-25',
];

/** How a registration gets OAuth tokens (`oauth.grant`, default `authorization_code`). */
export type OAuthGrant =
  'authorization_code' | 'client_credentials' | 'workload_identity' | 'enterprise_managed';

/** `oauth.dpop`: DPoP-bound tokens (RFC 9449, SEP-1932). */
export type DpopSetting = 'auto' | 'required' | 'off';

/**
 * Where a secret is read, on this machine, when a token is requested: an environment variable of
 * the runtime's process or a file readable by its owner only. `key` names the config key
 * (`oauth.client_secret_file`) for messages; the value itself is never part of the config.
 */
export type SecretSource =
  | { readonly kind: 'env'; readonly name: string; readonly key: string }
  | { readonly kind: 'file'; readonly path: string; readonly key: string };

/** `[…oauth.identity_provider]`: the enterprise IdP of `grant = "enterprise_managed"`. */
export interface IdentityProviderConfig {
  /** Discovered through RFC 8414 / OpenID metadata when set (instead of `tokenEndpoint`). */
  readonly issuer: string | null;
  readonly tokenEndpoint: string | null;
  readonly clientId: string;
  readonly clientSecret: SecretSource | null;
  /** The user's ID token at that IdP (traded for an ID-JAG). */
  readonly idToken: SecretSource;
}

export interface OAuthClientConfig {
  readonly clientId: string | null;
  readonly callbackUrl: string | null;
  readonly callbackPort: number | null;
  readonly grant: OAuthGrant;
  readonly dpop: DpopSetting;
  /** The authorization server's issuer the client's credentials belong to (SEP-2352). */
  readonly issuer: string | null;
  /** Client secret of a pre-registered confidential client (`client_secret_env_var|_file`). */
  readonly clientSecret: SecretSource | null;
  /** `private_key_file` (PEM, PKCS#8) for `private_key_jwt`; the algorithm is inferred if null. */
  readonly privateKey: { readonly file: string; readonly algorithm: string | null } | null;
  /** The workload's JWT for `grant = "workload_identity"` (`assertion_env_var|_file`). */
  readonly assertion: SecretSource | null;
  readonly identityProvider: IdentityProviderConfig | null;
}

export interface ToolOverrideConfig {
  readonly approvalMode: 'auto' | 'prompt' | 'writes' | 'approve' | null;
  readonly outputTokenLimit: number | null;
}

/** Restart policy, bounds and health check of one server. */
export interface SupervisionConfig {
  /** `on-failure` (default): a server that dies after starting is restarted with backoff. */
  readonly restart: 'on-failure' | 'never';
  /** Consecutive restarts before giving up (`restart_max_attempts`, default 5). */
  readonly maxRestarts: number;
  /** First restart delay; doubles per attempt up to 30 s, with ±20 % jitter (default 0.5 s). */
  readonly restartBackoffMs: number;
  /** How long a call made while the server restarts waits for it (default 5 s), then fails. */
  readonly restartWaitMs: number;
  /** Largest JSON-RPC message accepted from the server (default 64 MiB). */
  readonly maxMessageBytes: number;
  /** Ping interval of the optional health check; null: off. */
  readonly healthCheckIntervalMs: number | null;
}

/** One validated `[mcp_servers.<name>]` or `[environments.<id>.mcp_servers.<name>]` table. */
export interface ServerConfig {
  readonly scope: RegistrationScope;
  readonly transport: TransportConfig;
  /**
   * Execution environment: where the server runs. For environment-contributed registrations this
   * is the contributing environment; for thread-wide ones it is `environment_id` (default `local`).
   */
  readonly executionEnvironmentId: string;
  readonly enabled: boolean;
  readonly required: boolean;
  readonly startupTimeoutMs: number;
  readonly toolTimeoutMs: number;
  /** `task_timeout_sec`: how long a tool call that runs as a task may take in all (absent: `toolTimeoutMs`). */
  readonly taskTimeoutMs?: number;
  readonly enabledTools: readonly string[] | null;
  readonly disabledTools: readonly string[] | null;
  readonly scopes: readonly string[] | null;
  readonly oauth: OAuthClientConfig | null;
  readonly oauthResource: string | null;
  readonly supportsParallelToolCalls: boolean;
  readonly defaultToolsApprovalMode: 'auto' | 'prompt' | 'writes' | 'approve';
  readonly tools: Readonly<Record<string, ToolOverrideConfig>>;
  readonly supervision: SupervisionConfig;
  /** `protocol_version` (default `auto`). */
  readonly protocolVersion: ProtocolVersionSetting;
  /** Where the table starts, for messages. */
  readonly location: ConfigLocation;
  /**
   * Set on registrations read from an environment's own config (ssh: the remote host's), which
   * are untrusted: what this machine lends them. Absent for this machine's own config.
   */
  readonly untrusted?: RemoteTrust;
}

/** A server table that failed validation: it fails alone, with its diagnostics. */
export interface InvalidServerConfig {
  readonly scope: RegistrationScope;
  readonly location: ConfigLocation;
  readonly diagnostics: readonly ConfigDiagnostic[];
  /** One-line summary for status: the first error's message. */
  readonly error: string;
  readonly enabled: boolean;
  readonly required: boolean;
}

export interface ExecEnvironmentConfig {
  readonly id: string;
  readonly type: 'exec';
  /** Command prefix, e.g. `docker` with args `["exec", "-i", "ctr"]`. */
  readonly program: string;
  readonly args: readonly string[];
  /** Default absolute working directory for stdio servers in this environment. */
  readonly cwd: string | null;
  /** `direct`: HTTP servers in this environment are reached from this machine. */
  readonly http: 'direct' | 'unsupported';
  /** `description`: what the environment is, for people and models (docs/tool-shaping.md). */
  readonly description: string | null;
  readonly location: ConfigLocation;
}

/**
 * What this machine lends to the registrations an environment contributes from its own config
 * (ssh: the remote host's `~/.mcprt/config.toml`), which are untrusted by default
 * (`remote_allow_env_vars`, `remote_allow_oauth`; docs/config.md).
 */
export interface RemoteTrust {
  /** Variables of this machine they may read (`env_vars`, `bearer_token_env_var`, headers). */
  readonly envVars: readonly string[];
  /** Whether they may use this machine's OAuth credentials (and OAuth keys at all). */
  readonly oauth: boolean;
}

export interface SshEnvironmentConfig {
  readonly id: string;
  readonly type: 'ssh';
  readonly host: string;
  readonly user: string | null;
  readonly port: number | null;
  readonly identityFile: string | null;
  readonly sshOptions: readonly string[];
  readonly cwd: string | null;
  /** `description`: what the environment is, for people and models (docs/tool-shaping.md). */
  readonly description: string | null;
  readonly location: ConfigLocation;
  /** Present when the config lends anything to the remote host's own registrations. */
  readonly remoteTrust?: RemoteTrust;
}

export type EnvironmentConfig = ExecEnvironmentConfig | SshEnvironmentConfig;

export type OAuthCredentialsStoreMode = 'auto' | 'keyring' | 'file';

/** `[history]`: the tool-call history store. */
export interface HistoryConfig {
  readonly enabled: boolean;
  /** Key names secret besides the default rules (`redact_keys`; see history/redact.ts). */
  readonly redactKeys: readonly string[];
  /** `redact_keys_replace`: only `redactKeys` are secret keys (value patterns still apply). */
  readonly redactKeysReplace: boolean;
  /** Stored results larger than this are cut, with a truncation marker. */
  readonly maxResultBytes: number;
  /** The store keeps at most this many calls; older ones are pruned. */
  readonly maxEntries: number;
}

export interface McprtConfig {
  /** Absolute path of the file read (may not exist: then everything is empty). */
  readonly file: string;
  /** Environments in file order (`local` is implicit and never listed). */
  readonly environments: readonly EnvironmentConfig[];
  /** Valid registrations in file order: thread-wide first, then per environment. */
  readonly servers: readonly ServerConfig[];
  /** Registrations whose table failed validation; each fails alone at startup. */
  readonly invalidServers: readonly InvalidServerConfig[];
  /** Environment tables that failed validation (their servers fail with the reason). */
  readonly invalidEnvironments: readonly { id: string; error: string; location: ConfigLocation }[];
  readonly warnings: readonly ConfigDiagnostic[];
  readonly mcpOAuthCredentialsStore: OAuthCredentialsStoreMode;
  readonly mcpOAuthCallbackPort: number | null;
  readonly mcpOAuthCallbackUrl: string | null;
  readonly history: HistoryConfig;
  /** `sandbox_launcher`: the launcher sent to local stdio servers (docs/sandbox.md). */
  readonly sandboxLauncher: SandboxLauncherSetting;
  /** Valid `[views.NAME]` tables in file order (docs/tool-shaping.md). */
  readonly views: readonly ViewConfig[];
  /** View tables that failed validation; each fails alone (`--view NAME` is refused). */
  readonly invalidViews: readonly InvalidViewConfig[];
  /** `[serve]`: defaults of `mcprt serve`. */
  readonly serve: ServeConfig;
}

/** `sandbox_launcher`: absent (mcprt's own executable), an absolute path, or invalid (none). */
export type SandboxLauncherSetting =
  | { readonly kind: 'default' }
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'invalid'; readonly problem: string };

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;
