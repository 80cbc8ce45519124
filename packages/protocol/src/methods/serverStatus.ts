/**
 * `mcpServerStatus/list` and `mcpServer/startupStatus/updated`: status, inventory and auth per
 * registration, in Codex's shapes, plus mcprt's optional extras on each status item (Codex's
 * `McpServerStatus` does not forbid additional properties). Every item carries its registration
 * scope in `environmentId` (null = thread-wide).
 */

import { z } from 'zod';

import { McpServerInfo, Resource, ResourceTemplate, Tool } from './mcpTypes.js';

const nullableString = () => z.string().nullable();

/** How much inventory `mcpServerStatus/list` fetches. */
export const McpServerStatusDetail = z
  .enum(['full', 'toolsAndAuthOnly'])
  .meta({ id: 'McpServerStatusDetail' });
export type McpServerStatusDetail = z.infer<typeof McpServerStatusDetail>;

/** Auth state of a registration. */
export const McpAuthStatus = z
  .enum(['unknown', 'unsupported', 'notLoggedIn', 'bearerToken', 'oAuth'])
  .meta({ id: 'McpAuthStatus' });
export type McpAuthStatus = z.infer<typeof McpAuthStatus>;

/** Connection state of a registration in a thread's runtime. */
export const McpServerConnectionStatus = z
  .enum([
    'notStarted',
    'starting',
    'connected',
    'authenticationRequired',
    'failed',
    'cancelled',
    'disabled',
  ])
  .meta({ id: 'McpServerConnectionStatus' });
export type McpServerConnectionStatus = z.infer<typeof McpServerConnectionStatus>;

/** Startup state reported by `mcpServer/startupStatus/updated`. */
export const McpServerStartupState = z
  .enum(['starting', 'ready', 'failed', 'cancelled'])
  .meta({ id: 'McpServerStartupState' });
export type McpServerStartupState = z.infer<typeof McpServerStartupState>;

/** Why startup failed, when it is something the user can act on. */
export const McpServerStartupFailureReason = z
  .enum(['reauthenticationRequired'])
  .meta({ id: 'McpServerStartupFailureReason' });
export type McpServerStartupFailureReason = z.infer<typeof McpServerStartupFailureReason>;

/** `mcpServerStatus/list` params (Codex's; all optional and nullable). */
export const ListMcpServerStatusParams = z
  .object({
    cursor: z.string().nullish().describe('Opaque pagination cursor returned by a previous call.'),
    limit: z
      .int()
      .min(0)
      .max(4294967295)
      .nullish()
      .describe('Optional page size; defaults to a server-defined value.'),
    detail: McpServerStatusDetail.nullish().describe(
      'Controls how much MCP inventory data to fetch for each server. Defaults to `full`.',
    ),
    threadId: z.string().nullish(),
    serverName: z.string().nullish().describe('Limit the list to registrations of this name.'),
    environmentId: z
      .string()
      .nullish()
      .describe('Limit the list to this registration scope (`environmentId`).'),
  })
  .meta({ title: 'ListMcpServerStatusParams' });
export type ListMcpServerStatusParams = z.infer<typeof ListMcpServerStatusParams>;

/** Status, inventory and auth of one registration. */
export const McpServerStatus = z
  .object({
    name: z.string(),
    environmentId: nullableString().describe(
      'Registration scope: the environment that contributed this registration; null for a thread-wide server.',
    ),
    runtimeStatus: McpServerConnectionStatus.nullable().describe(
      'Current thread-runtime connection state; null when unavailable or the configuration changed.',
    ),
    pluginId: nullableString(),
    httpOrigin: nullableString().describe(
      'HTTP origin of the configured endpoint (no credentials, path, query or fragment); null for stdio.',
    ),
    serverInfo: McpServerInfo.nullable(),
    serverCapabilities: z
      .unknown()
      .describe('Capabilities advertised by the initialized MCP server; null when unavailable.'),
    toolListMeta: z
      .unknown()
      .describe('Opaque `_meta` from the first page of the tool catalog; null when unavailable.'),
    tools: z.record(z.string(), Tool).describe('Tools keyed by their MCP tool name.'),
    toolsError: nullableString().describe(
      'Tool discovery failed and no catalog was returned; null when a catalog is returned.',
    ),
    resources: z.array(Resource),
    resourceTemplates: z.array(ResourceTemplate),
    authStatus: McpAuthStatus,
    // mcprt extras (optional: Codex does not send them).
    executionEnvironmentId: z
      .string()
      .optional()
      .describe('mcprt: the environment the server executes in (may differ from the scope).'),
    startupStatus: McpServerStartupState.nullish().describe(
      'mcprt: last startup state in this thread; null without a thread or for disabled servers.',
    ),
    stderrTail: z
      .array(z.string())
      .optional()
      .describe("mcprt: the last lines of a stdio server's stderr, oldest first."),
    modelToolNames: z
      .record(z.string(), z.string())
      .optional()
      .describe('mcprt: raw MCP tool name -> model-visible tool name (≤ 64 characters).'),
    protocolVersion: z
      .string()
      .optional()
      .describe(
        'mcprt: the MCP protocol revision negotiated with the server (`2026-07-28` after `server/discover`, `2025-11-25` or older after `initialize`); absent while not connected.',
      ),
  })
  .meta({ id: 'McpServerStatus' });
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** `mcpServerStatus/list` result, sorted by name. */
export const ListMcpServerStatusResult = z
  .object({
    data: z.array(McpServerStatus),
    nextCursor: nullableString().describe(
      'Cursor to pass to the next call to continue after the last item; null when there are no more.',
    ),
  })
  .meta({ title: 'ListMcpServerStatusResult' });
export type ListMcpServerStatusResult = z.infer<typeof ListMcpServerStatusResult>;

/** `mcpServer/startupStatus/updated` notification. */
export const McpServerStatusUpdatedNotification = z
  .object({
    threadId: nullableString(),
    name: z.string(),
    environmentId: nullableString().describe(
      "Registration scope, not necessarily the server's execution environment.",
    ),
    status: McpServerStartupState,
    error: nullableString(),
    failureReason: McpServerStartupFailureReason.nullable(),
  })
  .meta({ title: 'McpServerStatusUpdatedNotification' });
export type McpServerStatusUpdatedNotification = z.infer<typeof McpServerStatusUpdatedNotification>;
