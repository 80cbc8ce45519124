/**
 * Builds the public `ServerStatus` record of one registration from its live state. Never
 * includes secrets: environment values, headers and tokens are not part of status.
 */

import type { InventoryTool } from '../inventory/inventory.js';
import type { Registration } from './registration.js';
import type { ServerStatus } from './status.js';

export function collectStatus(reg: Registration, tools: readonly InventoryTool[]): ServerStatus {
  const config = reg.config;
  const connection = reg.connection;
  const info = connection?.serverInfo;
  return {
    scope: reg.scope,
    name: reg.scope.name,
    environmentId: reg.scope.environmentId,
    executionEnvironmentId: config?.executionEnvironmentId ?? reg.scope.environmentId ?? 'local',
    transport: config?.transport.type ?? null,
    enabled: reg.enabled,
    required: reg.required,
    startupStatus: reg.startupStatus,
    connectionStatus: reg.connectionStatus,
    error: reg.error,
    failureKind: reg.failureKind,
    stderrTail: reg.stderrTail(),
    serverInfo: info ? { name: info.name, version: info.version, title: info.title } : null,
    instructions: connection?.instructions ?? null,
    tools: tools.map((t) => ({
      name: t.tool.name,
      modelName: t.modelName,
      title: typeof t.tool['title'] === 'string' ? t.tool['title'] : undefined,
      description: t.tool.description,
      inputSchema: t.tool.inputSchema,
    })),
    resources: (connection?.resources ?? []).map((r) => ({
      uri: r.uri,
      name: r.name,
      title: r.title,
      mimeType: r.mimeType,
    })),
    resourceTemplates: (connection?.resourceTemplates ?? []).map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      title: t.title,
    })),
    pid: connection?.pid ?? null,
  };
}
