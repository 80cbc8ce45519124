/**
 * `mcpServer/tool/call`: routes by `(server, environmentId?)` within the thread and returns the
 * MCP `CallToolResult` unchanged. Codex's rules: `arguments` must be a JSON object when present
 * (its error text); `_meta.threadId` is set to the thread (a client's value is overwritten; a
 * non-object `_meta` is forwarded untouched). The call gets an item id (announced by
 * `item/started`); `mcpServer/tool/cancel` with that id, `$/cancelRequest` with this request's id,
 * or the client disconnecting cancels it (the server receives `notifications/cancelled`).
 */

import { randomUUID } from 'node:crypto';

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { internalError } from '../errorMap.js';

interface ToolCallInput {
  readonly threadId: string;
  readonly server: string;
  readonly tool: string;
  readonly environmentId?: string | null | undefined;
  readonly arguments?: unknown;
  readonly _meta?: unknown;
}

export async function callTool(params: ToolCallInput, ctx: HandlerContext) {
  const thread = requireThread(ctx, params.threadId);
  const args = params.arguments;
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    throw internalError(
      `tool call failed for \`${params.server}/${params.tool}\`: MCP tool arguments must be a JSON object, got ${JSON.stringify(args)}`,
    );
  }
  const itemId = `call_${randomUUID()}`;
  const controller = new AbortController();
  const onAbort = () => controller.abort(new Error('tool call cancelled by the client'));
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  thread.inflight.set(itemId, controller);
  try {
    return await thread.session.callTool({
      server: params.server,
      tool: params.tool,
      callId: itemId,
      signal: controller.signal,
      ...(params.environmentId != null ? { environmentId: params.environmentId } : {}),
      ...(args != null ? { arguments: args as Record<string, unknown> } : {}),
      ...(params._meta !== undefined ? { meta: params._meta } : {}),
    });
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    thread.inflight.delete(itemId);
  }
}
