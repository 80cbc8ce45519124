/**
 * What the gateway says about its registrations: the status document (the
 * `mcprt://gateway/status` resource) and one log line per notable startup transition — a server
 * that failed (its error; or, lost with its environment, that its tools stay listed and the next
 * call starts it again), one that needs an OAuth login (the exact `mcprt mcp login` command), one
 * that became ready. A failing server is absent tools plus these messages, never a failed gateway.
 */

import { scopeLabel } from '@mcprt/runtime';
import type { RegistrationScope, ServerStatus, Session, StartupStatusEvent } from '@mcprt/runtime';

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';

/** The command that logs one registration in (`mcprt [--home H] mcp login NAME [--environment E]`). */
export type LoginCommand = (scope: RegistrationScope) => string;

export function defaultLoginCommand(scope: RegistrationScope): string {
  return scope.environmentId === null
    ? `mcprt mcp login ${scope.name}`
    : `mcprt mcp login ${scope.name} --environment ${scope.environmentId}`;
}

export function needsLogin(status: Pick<ServerStatus, 'connectionStatus'>): boolean {
  return status.connectionStatus === 'authenticationRequired';
}

/**
 * The status resource's JSON: one entry per registration, in the session's order — of the
 * registrations `shown` keeps (a caller's policy: what it may list).
 */
export function statusDocument(
  session: Session,
  loginCommand: LoginCommand,
  shown: (scope: RegistrationScope) => boolean = () => true,
): string {
  const servers = session
    .listStatus()
    .filter((s) => shown(s.scope))
    .map((s) => ({
      server: s.name,
      environmentId: s.environmentId,
      label: scopeLabel(s.scope),
      startupStatus: s.startupStatus,
      connectionStatus: s.connectionStatus,
      authStatus: s.authStatus,
      protocolVersion: s.protocolVersion,
      error: s.error,
      tools: s.tools.length,
      login: needsLogin(s) ? loginCommand(s.scope) : null,
    }));
  return JSON.stringify({ threadId: session.threadId, servers }, null, 2);
}

/** The log message for a startup transition, or null when there is nothing to say. */
export function startupMessage(
  event: StartupStatusEvent,
  status: ServerStatus | undefined,
  loginCommand: LoginCommand,
): { level: LogLevel; message: string } | null {
  const label = scopeLabel(event.scope);
  if (event.status === 'ready') {
    const tools = status?.tools.length ?? 0;
    return { level: 'info', message: `MCP server \`${label}\` is ready (${tools} tools)` };
  }
  if (event.status !== 'failed') return null;
  if (status !== undefined && needsLogin(status)) {
    return {
      level: 'warning',
      message: `MCP server \`${label}\` needs an OAuth login; its tools are unavailable until you run \`${loginCommand(event.scope)}\``,
    };
  }
  const listed = status?.tools.length ?? 0;
  if (listed > 0) {
    // Lost with its environment: its last tools stay listed and a call starts it again.
    return {
      level: 'warning',
      message: `MCP server \`${label}\` failed: ${event.error ?? 'failed'}; its ${listed} tools stay listed and the next call starts it again`,
    };
  }
  return {
    level: 'error',
    message: `MCP server \`${label}\` failed; its tools are unavailable: ${event.error ?? 'failed'}`,
  };
}
