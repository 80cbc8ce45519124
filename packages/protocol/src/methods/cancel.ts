/**
 * Cancelling in-flight work (mcprt extensions): `mcpServer/tool/cancel` by item id, and the
 * generic `$/cancelRequest` notification by JSON-RPC request id (LSP's convention). Either way
 * the MCP server receives `notifications/cancelled` and the call fails as cancelled.
 */

import { z } from 'zod';

export const McpServerToolCancelParams = z
  .object({ threadId: z.string(), itemId: z.string() })
  .meta({ title: 'McpServerToolCancelParams' });
export type McpServerToolCancelParams = z.infer<typeof McpServerToolCancelParams>;

export const McpServerToolCancelResult = z
  .object({ cancelled: z.boolean().describe('False when no such call was in flight.') })
  .meta({ title: 'McpServerToolCancelResult' });
export type McpServerToolCancelResult = z.infer<typeof McpServerToolCancelResult>;

export const CancelRequestNotificationParams = z
  .object({ id: z.union([z.string(), z.number()]) })
  .meta({ title: 'CancelRequestNotificationParams' });
export type CancelRequestNotificationParams = z.infer<typeof CancelRequestNotificationParams>;

/** Codex's `serverRequest/resolved`: a server→client request was answered or withdrawn. */
export const ServerRequestResolvedNotification = z
  .object({ threadId: z.string(), requestId: z.union([z.string(), z.number()]) })
  .meta({ title: 'ServerRequestResolvedNotification' });
export type ServerRequestResolvedNotification = z.infer<typeof ServerRequestResolvedNotification>;
