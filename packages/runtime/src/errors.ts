/**
 * Typed errors of the runtime. Every error carries a stable string `code` and, where it wraps
 * another failure, a `cause`. The app-server maps codes to wire errors; nothing outside this
 * module decides what a failure is called.
 */

import type { ConfigDiagnostic } from './config/types.js';
import type { RegistrationScope } from './scope.js';

export type McprtErrorCode =
  | 'config_parse'
  | 'config_invalid'
  | 'config_write'
  | 'unknown_environment'
  | 'environment_not_selected'
  | 'unknown_server'
  | 'server_unavailable'
  | 'tool_disabled'
  | 'required_servers_failed'
  | 'session_closed'
  | 'request_failed'
  | 'environment_unsupported'
  | 'oauth_login_failed'
  | 'oauth_refresh_failed'
  | 'oauth_authorization_required'
  | 'oauth_credentials_store'
  | 'oauth_secret_unavailable'
  | 'skill_verification_failed'
  | 'unknown_view'
  | 'tool_not_in_view';

/** Base class: `code` is the machine-readable kind; `message` is meant for people. */
export class McprtError extends Error {
  readonly code: McprtErrorCode;
  constructor(code: McprtErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** `environmentId` selector names no configured environment (wire: -32600). */
export class UnknownEnvironmentError extends McprtError {
  readonly environmentId: string;
  constructor(environmentId: string) {
    super('unknown_environment', `unknown environment id \`${environmentId}\``);
    this.environmentId = environmentId;
  }
}

/** The environment exists but the session (thread) did not select it (wire: -32600). */
export class EnvironmentNotSelectedError extends McprtError {
  readonly environmentId: string;
  readonly threadId: string;
  constructor(environmentId: string, threadId: string) {
    super(
      'environment_not_selected',
      `environment \`${environmentId}\` is not selected by thread ${threadId}`,
    );
    this.environmentId = environmentId;
    this.threadId = threadId;
  }
}

/** No registration matches the name (and environment, when given) (wire: -32603). */
export class UnknownServerError extends McprtError {
  readonly serverName: string;
  readonly environmentId: string | null;
  constructor(serverName: string, environmentId: string | null) {
    super(
      'unknown_server',
      environmentId === null
        ? `unknown MCP server '${serverName}'`
        : `unknown MCP server '${serverName} (environment ${environmentId})'`,
    );
    this.serverName = serverName;
    this.environmentId = environmentId;
  }
}

/** A `required = true` server failed to start; the message aggregates every failure (Codex's). */
export class RequiredServersError extends McprtError {
  readonly failures: readonly { label: string; error: string }[];
  constructor(failures: readonly { label: string; error: string }[]) {
    super(
      'required_servers_failed',
      `required MCP servers failed to initialize: ${failures.map((f) => `${f.label}: ${f.error}`).join('; ')}`,
    );
    this.failures = failures;
  }
}

/** The registration exists but has no live connection (failed, disabled, cancelled). */
export class ServerUnavailableError extends McprtError {
  /** The registration's scope, when the thrower knows it (a tool call's history record). */
  readonly scope: RegistrationScope | null;
  constructor(label: string, reason: string, scope: RegistrationScope | null = null) {
    super('server_unavailable', `MCP server \`${label}\` is not available: ${reason}`);
    this.scope = scope;
  }
}

/**
 * The tool is filtered out by `enabled_tools`/`disabled_tools`: Codex's text, then which list or
 * pattern filtered it (``(disabled_tools pattern `delete_*`)``) when known.
 */
export class ToolDisabledError extends McprtError {
  /** Which list or pattern filtered the tool (inventory/toolFilter.ts), or null. */
  readonly reason: string | null;
  constructor(tool: string, serverLabel: string, reason: string | null = null) {
    const why = reason === null ? '' : ` (${reason})`;
    super('tool_disabled', `tool '${tool}' is disabled for MCP server '${serverLabel}'${why}`);
    this.reason = reason;
  }
}

/** An MCP server's own JSON-RPC error answer: its code, message and data, as sent. */
export interface ServerErrorInfo {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A request to a live server failed (timeout, protocol error, connection lost). */
export class RequestFailedError extends McprtError {
  /** The server's own JSON-RPC error, when it answered with one (hosts may pass it on). */
  readonly serverError: ServerErrorInfo | null;
  constructor(
    message: string,
    options?: { cause?: unknown; serverError?: ServerErrorInfo | null },
  ) {
    super(
      'request_failed',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.serverError = options?.serverError ?? null;
  }
}

export class SessionClosedError extends McprtError {
  constructor(threadId: string) {
    super('session_closed', `session ${threadId} is closed`);
  }
}

/** `config.toml` is not valid TOML, or cannot be read. `line`/`column` are 1-based when known. */
export class ConfigParseError extends McprtError {
  readonly file: string;
  readonly line: number | null;
  readonly column: number | null;
  constructor(
    file: string,
    line: number | null,
    column: number | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('config_parse', message, options);
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

/** Strict loading found problems; `message` lists every diagnostic message, one per line. */
export class ConfigInvalidError extends McprtError {
  readonly diagnostics: readonly ConfigDiagnostic[];
  constructor(diagnostics: readonly ConfigDiagnostic[]) {
    super('config_invalid', diagnostics.map((d) => d.message).join('\n'));
    this.diagnostics = diagnostics;
  }
}

/** An edit of `config.toml` was refused or failed; the file is left unchanged. */
export class ConfigWriteError extends McprtError {
  readonly file: string;
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super('config_write', message, options);
    this.file = file;
  }
}

/** A view name (`--view`, `thread/start` `view`) names no valid `[views.NAME]` table. */
export class UnknownViewError extends McprtError {
  readonly view: string;
  constructor(view: string, known: readonly string[], invalid: string | null = null) {
    super(
      'unknown_view',
      invalid !== null
        ? `view \`${view}\` is invalid: ${invalid}`
        : known.length === 0
          ? `unknown view \`${view}\`: config.toml defines no [views]`
          : `unknown view \`${view}\` (defined: ${known.map((k) => `\`${k}\``).join(', ')})`,
    );
    this.view = view;
  }
}

/** A call to a tool the session's view does not include; recorded in history as refused. */
export class ToolNotInViewError extends McprtError {
  readonly view: string;
  constructor(tool: string, serverLabel: string, view: string) {
    super(
      'tool_not_in_view',
      `tool \`${tool}\` of \`${serverLabel}\` is not in view \`${view}\`; refused`,
    );
    this.view = view;
  }
}
