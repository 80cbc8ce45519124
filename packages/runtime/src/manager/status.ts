/**
 * Status vocabulary and the per-scope status records a session reports. Mirrors Codex's
 * startup states (`starting|ready|failed|cancelled`) and runtime connection states, keyed by
 * registration scope and carrying `environmentId` everywhere.
 */

import type {
  McpResource,
  McpResourceTemplate,
  ServerCapabilities,
  ServerInfo,
} from '../connection/mcpTypes.js';
import type { StartupFailureKind } from '../connection/startupErrors.js';
import type { RegistrationScope } from '../scope.js';

export type StartupStatus = 'starting' | 'ready' | 'failed' | 'cancelled';

export type ConnectionStatus =
  | 'notStarted'
  | 'starting'
  | 'connected'
  | 'authenticationRequired'
  | 'failed'
  | 'cancelled'
  | 'disabled';

export type FailureKind = StartupFailureKind | 'crashed' | 'removed';

export interface StatusTool {
  readonly name: string;
  readonly modelName: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  /** The raw MCP tool definition exactly as the server listed it. */
  readonly definition: Readonly<Record<string, unknown>>;
}

/** An MCP resource as the server listed it. */
export type StatusResource = McpResource;

/** An MCP resource template as the server listed it. */
export type StatusResourceTemplate = McpResourceTemplate;

export interface ServerStatus {
  readonly scope: RegistrationScope;
  readonly name: string;
  /** Registration scope's environment: null for thread-wide registrations. */
  readonly environmentId: string | null;
  /** Where the server runs (`local` or an environment id). */
  readonly executionEnvironmentId: string;
  readonly transport: 'stdio' | 'streamable_http' | null;
  readonly enabled: boolean;
  readonly required: boolean;
  /** Null for disabled registrations (they never start). */
  readonly startupStatus: StartupStatus | null;
  readonly connectionStatus: ConnectionStatus;
  readonly error: string | null;
  readonly failureKind: FailureKind | null;
  /** Automatic restarts of this registration so far (restart policy `on-failure`). */
  readonly restartCount: number;
  /** True while a crashed server is being restarted. */
  readonly restarting: boolean;
  /** How the last server process ended (stdio), e.g. `{code: 1, signal: null}`. */
  readonly lastExit: { readonly code: number | null; readonly signal: string | null } | null;
  /** Last stderr lines of a stdio server. */
  readonly stderrTail: readonly string[];
  /** The server's `initialize` result `serverInfo`, as sent. */
  readonly serverInfo: ServerInfo | null;
  /** The server's `initialize` result `capabilities`, as sent. */
  readonly capabilities: ServerCapabilities | null;
  /** Origin (`scheme://host:port`) of a streamable HTTP server's URL; null for stdio. */
  readonly httpOrigin: string | null;
  /** How the server authenticates: config, stored OAuth credentials, the connection's answer. */
  readonly authStatus: 'unsupported' | 'bearerToken' | 'notLoggedIn' | 'oAuth' | 'unknown';
  readonly instructions: string | null;
  /**
   * The MCP protocol revision negotiated with the server (`2026-07-28` after `server/discover`,
   * `2025-11-25` and older after `initialize`); null until connected.
   */
  readonly protocolVersion: string | null;
  readonly tools: readonly StatusTool[];
  readonly resources: readonly StatusResource[];
  readonly resourceTemplates: readonly StatusResourceTemplate[];
  readonly pid: number | null;
}

/** Emitted on every startup transition (`mcpServer/startupStatus/updated` on the wire). */
export interface StartupStatusEvent {
  readonly threadId: string;
  readonly scope: RegistrationScope;
  readonly name: string;
  readonly environmentId: string | null;
  readonly status: StartupStatus;
  readonly error: string | null;
  readonly failureKind: FailureKind | null;
}

export interface StartupSummary {
  readonly ready: readonly RegistrationScope[];
  readonly failed: readonly { scope: RegistrationScope; error: string }[];
  readonly cancelled: readonly RegistrationScope[];
}
