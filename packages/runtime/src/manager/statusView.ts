/**
 * Builds the public `ServerStatus` record of one registration from its live state. Never
 * includes secrets: environment values, headers and tokens are not part of status.
 */

import type { RuntimeAuth } from '../auth/runtimeAuth.js';
import type { ServerConfig } from '../config/types.js';
import type { InventoryTool } from '../inventory/inventory.js';
import type { Registration } from './registration.js';
import type { RegistrationSet } from './registrationSet.js';
import type { ServerStatus } from './status.js';

export interface StatusFilter {
  readonly serverName?: string;
  readonly environmentId?: string | null;
}

/** Status of every registration, in order; `serverName` / `environmentId` narrow it. */
export function listStatuses(
  registrations: RegistrationSet,
  filter: StatusFilter,
  auth?: RuntimeAuth,
): ServerStatus[] {
  const inventory = registrations.inventory();
  return registrations
    .values()
    .filter((r) => filter.serverName === undefined || r.scope.name === filter.serverName)
    .filter(
      (r) => filter.environmentId === undefined || r.scope.environmentId === filter.environmentId,
    )
    .map((r) => collectStatus(r, inventory.forScope(r.scope), auth));
}

export function collectStatus(
  reg: Registration,
  tools: readonly InventoryTool[],
  auth?: RuntimeAuth,
): ServerStatus {
  const config = reg.config;
  const connection = reg.connection;
  const status = reg.status;
  const info = connection?.serverInfo;
  return {
    scope: reg.scope,
    name: reg.scope.name,
    environmentId: reg.scope.environmentId,
    executionEnvironmentId: config?.executionEnvironmentId ?? reg.scope.environmentId ?? 'local',
    transport: config?.transport.type ?? null,
    enabled: reg.enabled,
    required: reg.required,
    startupStatus: status.startupStatus,
    connectionStatus: status.connectionStatus,
    error: status.error,
    failureKind: status.failureKind,
    stderrTail: reg.stderrTail(),
    restartCount: reg.restartCount,
    restarting: reg.restarting,
    lastExit: connection?.exitInfo ?? reg.lastExit,
    serverInfo: info ? { ...info } : null,
    capabilities: connection?.capabilities ? { ...connection.capabilities } : null,
    httpOrigin: httpOrigin(config),
    authStatus: auth
      ? auth.authStatus(config, status.connectionStatus === 'authenticationRequired')
      : authStatus(config),
    instructions: connection?.instructions ?? null,
    protocolVersion: connection?.protocolVersion ?? null,
    tools: tools.map((t) => ({
      name: t.tool.name,
      modelName: t.modelName,
      title: typeof t.tool['title'] === 'string' ? t.tool['title'] : undefined,
      description: t.tool.description,
      inputSchema: t.tool.inputSchema,
      definition: t.tool,
    })),
    // The server's own definitions, as listed (every MCP field kept).
    resources: (connection?.resources ?? []).map((r) => ({ ...r })),
    resourceTemplates: (connection?.resourceTemplates ?? []).map((t) => ({ ...t })),
    pid: connection?.pid ?? null,
  };
}

function httpOrigin(config: ServerConfig | null): string | null {
  if (config?.transport.type !== 'streamable_http') return null;
  try {
    return new URL(config.transport.url).origin;
  } catch {
    return null;
  }
}

/** Without the runtime's OAuth state: bearer variable or Authorization header ⇒ bearerToken. */
function authStatus(config: ServerConfig | null): ServerStatus['authStatus'] {
  if (config?.transport.type !== 'streamable_http') return 'unsupported';
  const t = config.transport;
  const hasAuthHeader = [...Object.keys(t.httpHeaders), ...Object.keys(t.envHttpHeaders)].some(
    (h) => h.toLowerCase() === 'authorization',
  );
  return t.bearerTokenEnvVar !== null || hasAuthHeader ? 'bearerToken' : 'unsupported';
}
