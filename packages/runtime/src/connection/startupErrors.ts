/**
 * Startup failure texts. Codex's forms are kept exactly (timed out / not logged in / failed to
 * start); the `{error}` part is made specific: a refused protocol revision (protocolRefusal.ts,
 * before anything else — such a server often exits right after saying so), and for stdio servers
 * a missing command or a process that exited during initialize (exit status and stderr tail); for
 * streamable-HTTP servers the request and its root cause (failureCause.ts: `POST http://…/mcp:
 * connect ECONNREFUSED …`, a TLS or DNS failure, `HTTP 500 …: <first line of the body>`).
 */

import { InsufficientScopeError } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import { StdioProcessTransport } from '../launch/stdioTransport.js';
import { scopeLabel } from '../scope.js';
import { describeCauseChain, describeHttpFailure } from './failureCause.js';
import { describeRefusal } from './protocolRefusal.js';

export type StartupFailureKind =
  | 'timeout'
  | 'authentication'
  | 'cancelled'
  | 'command_not_found'
  | 'exited'
  | 'config'
  | 'protocol_error'
  | 'protocol_version'
  | 'error';

export class StartupFailure extends Error {
  constructor(
    readonly kind: StartupFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StartupFailure';
  }
}

/** `[mcp_servers.x]` or `[environments.e.mcp_servers.x]`: where the user fixes it. */
export function configTableHeader(config: ServerConfig): string {
  const { environmentId, name } = config.scope;
  return environmentId === null
    ? `[mcp_servers.${name}]`
    : `[environments.${environmentId}.mcp_servers.${name}]`;
}

export function failedToStart(
  config: ServerConfig,
  detail: string,
  kind: StartupFailureKind = 'error',
  cause?: unknown,
): StartupFailure {
  return new StartupFailure(
    kind,
    `MCP client for \`${scopeLabel(config.scope)}\` failed to start: ${detail}`,
    cause === undefined ? undefined : { cause },
  );
}

/** Codex's text for a start that took longer than `startup_timeout_sec`. */
export function startupTimedOut(config: ServerConfig, cause?: unknown): StartupFailure {
  const seconds = config.startupTimeoutMs / 1000;
  return new StartupFailure(
    'timeout',
    `MCP client for \`${scopeLabel(config.scope)}\` timed out after ${seconds} seconds. Add or adjust \`startup_timeout_sec\` in your config.toml:\n${configTableHeader(config)}\nstartup_timeout_sec = XX`,
    cause === undefined ? undefined : { cause },
  );
}

export function describeStartupFailure(
  config: ServerConfig,
  error: unknown,
  transport: Transport | undefined,
): StartupFailure {
  if (error instanceof StartupFailure) return error;
  const label = scopeLabel(config.scope);
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const httpStatus = (error as { data?: { status?: unknown } } | null)?.data?.status;
  const refusal = describeRefusal(config, error);
  if (refusal) return failedToStart(config, refusal, 'protocol_version', error);

  if (transport instanceof StdioProcessTransport) {
    const spawnError = transport.startError as NodeJS.ErrnoException | undefined;
    const command = config.transport.type === 'stdio' ? config.transport.command : '';
    if (spawnError?.code === 'ENOENT') {
      return failedToStart(
        config,
        `command not found: \`${command}\` (${spawnError.message})`,
        'command_not_found',
        error,
      );
    }
    if (spawnError) return failedToStart(config, spawnError.message, 'error', error);
    if (transport.failure) {
      return failedToStart(config, transport.failure.message, 'protocol_error', error);
    }
    const exit = transport.exit;
    if (exit) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const tail = transport.stderr
        .snapshot()
        .filter((l) => l.trim() !== '')
        .slice(-5);
      const stderr = tail.length > 0 ? `; stderr: ${tail.join(' | ')}` : '';
      const kind = exit.code === 127 ? 'command_not_found' : 'exited';
      return failedToStart(config, `server process ${how} during initialize${stderr}`, kind, error);
    }
  }
  if (code === 'REQUEST_TIMEOUT' || /request timed out|timed out handshaking/i.test(message)) {
    return startupTimedOut(config, error);
  }
  const oauth = describeOAuthFailure(config, error);
  if (oauth) return oauth;
  if (
    code === 'CLIENT_HTTP_AUTHENTICATION' ||
    httpStatus === 401 ||
    /auth required/i.test(message)
  ) {
    const login =
      config.scope.environmentId === null
        ? label
        : `${config.scope.name} --environment ${config.scope.environmentId}`;
    return new StartupFailure(
      'authentication',
      `The ${label} MCP server is not logged in. Run \`mcprt mcp login ${login}\`.`,
      { cause: error },
    );
  }
  const http = describeHttpFailure(config, error);
  if (http) return failedToStart(config, http, 'error', error);
  return failedToStart(config, describeCauseChain(error), 'error', error);
}

/**
 * OAuth failures (docs/auth.md): a login is needed (none stored, refused, or more scopes asked
 * for: `authenticationRequired`), or a refresh failed for a transient reason (a plain failure;
 * the credentials are kept and the next start retries).
 */
function describeOAuthFailure(config: ServerConfig, error: unknown): StartupFailure | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'oauth_authorization_required')
      return new StartupFailure('authentication', e.message, { cause: error });
    if (code === 'oauth_refresh_failed') return failedToStart(config, e.message, 'error', error);
    // A secret the `[oauth]` table names is missing or unsafe (never its value).
    if (code === 'oauth_secret_unavailable')
      return failedToStart(config, e.message, 'config', error);
    if (InsufficientScopeError.isInstance(e)) {
      const { environmentId, name } = config.scope;
      const login = environmentId === null ? name : `${name} --environment ${environmentId}`;
      const scopes = e.requiredScope ? ` \`${e.requiredScope}\`` : '';
      return new StartupFailure(
        'authentication',
        `The ${scopeLabel(config.scope)} MCP server needs OAuth scopes${scopes} that its login did not grant. Run \`mcprt mcp login ${login}\` (the new login asks for them).`,
        { cause: error },
      );
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
