/**
 * Runtime `ServerStatus` → Codex's `McpServerStatus` wire item (plus mcprt's extras:
 * execution environment, startup status, stderr tail, model-visible tool names, the negotiated
 * MCP protocol revision — absent while not connected). `detail:
 * "toolsAndAuthOnly"` leaves resources and templates empty, as Codex does.
 */

import type { ServerStatus } from '@mcprt/runtime';

export type StatusDetail = 'full' | 'toolsAndAuthOnly';

export function toWireStatus(s: ServerStatus, detail: StatusDetail, live: boolean) {
  // Tool names are the server's: `Object.fromEntries` makes each an own key (`__proto__` too).
  const tools = Object.fromEntries(s.tools.map((t) => [t.name, t.definition]));
  const modelToolNames = Object.fromEntries(s.tools.map((t) => [t.name, t.modelName]));
  const info = s.serverInfo;
  return {
    name: s.name,
    environmentId: s.environmentId,
    runtimeStatus: live ? s.connectionStatus : null,
    pluginId: null,
    httpOrigin: s.httpOrigin,
    serverInfo: info
      ? {
          ...info,
          title: info.title ?? null,
          description: (info['description'] as string | undefined) ?? null,
          icons: (info['icons'] as unknown[] | undefined) ?? null,
          websiteUrl: (info['websiteUrl'] as string | undefined) ?? null,
        }
      : null,
    serverCapabilities: s.capabilities,
    toolListMeta: null,
    tools,
    toolsError:
      s.connectionStatus === 'connected' || s.connectionStatus === 'disabled' ? null : s.error,
    resources: detail === 'full' ? s.resources.map(stripUndefined) : [],
    resourceTemplates: detail === 'full' ? s.resourceTemplates.map(stripUndefined) : [],
    authStatus: s.authStatus,
    executionEnvironmentId: s.executionEnvironmentId,
    startupStatus: s.startupStatus,
    stderrTail: [...s.stderrTail],
    modelToolNames,
    ...(s.protocolVersion !== null ? { protocolVersion: s.protocolVersion } : {}),
  };
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
