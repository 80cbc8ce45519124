/**
 * Builders of `mcpServerStatus/list` items and startup notifications as the app-server sends
 * them, for the TUI's view tests (the inputs of pure view-models; the end-to-end tests use real
 * servers).
 */

import type { McpServerStatus, McpServerStatusUpdatedNotification } from '@mcprt/protocol';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });

export function statusItem(
  name: string,
  environmentId: string | null,
  patch: Partial<McpServerStatus> & { toolNames?: readonly string[] } = {},
): McpServerStatus {
  const { toolNames = [], ...rest } = patch;
  const namespace = environmentId === null ? `mcp__${name}__` : `mcp__${environmentId}__${name}__`;
  return {
    name,
    environmentId,
    runtimeStatus: 'connected',
    pluginId: null,
    httpOrigin: null,
    serverInfo: { name: `${name}-server`, version: '1.0.0' },
    serverCapabilities: null,
    toolListMeta: null,
    tools: Object.fromEntries(toolNames.map((t) => [t, tool(t)])),
    toolsError: null,
    resources: [],
    resourceTemplates: [],
    authStatus: 'unsupported',
    executionEnvironmentId: environmentId ?? 'local',
    startupStatus: 'ready',
    stderrTail: [],
    // As the runtime names them: characters outside [A-Za-z0-9_] become `_`.
    modelToolNames: Object.fromEntries(
      toolNames.map((t) => [t, `${namespace}${t.replace(/[^A-Za-z0-9_]/g, '_')}`]),
    ),
    ...rest,
  } as McpServerStatus;
}

export function startup(
  name: string,
  environmentId: string | null,
  status: McpServerStatusUpdatedNotification['status'],
  error: string | null = null,
  failureReason: McpServerStatusUpdatedNotification['failureReason'] = null,
): McpServerStatusUpdatedNotification {
  return { threadId: 't1', name, environmentId, status, error, failureReason };
}
