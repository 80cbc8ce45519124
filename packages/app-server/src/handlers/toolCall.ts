/**
 * `mcpServer/tool/call`: routes by `(server, environmentId?)` within the thread and returns the
 * MCP `CallToolResult` unchanged. Codex's rules: `arguments` must be a JSON object when present
 * (its error text); `_meta.threadId` is set to the thread (a client's value is overwritten; a
 * non-object `_meta` is forwarded untouched). The call gets an item id (announced by
 * `item/started`); `mcpServer/tool/cancel` with that id, `$/cancelRequest` with this request's id,
 * or the client disconnecting cancels it (the server receives `notifications/cancelled`).
 */

import type { Mutable } from '@mcprt/base';
import type { ToolCallRequest } from '@mcprt/runtime';
import { CallCancel, newCallId } from '@mcprt/runtime';

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

/** Why a call the client cancelled failed (also `mcpServer/tool/cancel`'s). */
export const CANCELLED = 'tool call cancelled by the client';

export async function callTool(params: ToolCallInput, ctx: HandlerContext) {
  const thread = requireThread(ctx, params.threadId);
  const args = params.arguments;
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    throw internalError(
      `tool call failed for \`${params.server}/${params.tool}\`: MCP tool arguments must be a JSON object, got ${JSON.stringify(args)}`,
    );
  }
  // Time-ordered (version 7, ADR 0028): the item id is the call's history id, and a random one
  // would land on a random page of the history's id index.
  const itemId = `call_${newCallId()}`;
  // A `CallCancel`, not an `AbortController`: no `AbortSignal` per call (ADR 0023).
  const cancel = new CallCancel();
  const stopCancel = ctx.onCancel(() => cancel.abort(new Error(CANCELLED)));
  thread.inflight.set(itemId, cancel);
  // The request is built without spreading optional parts (a spread allocates and copies).
  const request: Mutable<ToolCallRequest> = {
    server: params.server,
    tool: params.tool,
    callId: itemId,
    signal: cancel,
  };
  if (params.environmentId != null) request.environmentId = params.environmentId;
  if (args != null) request.arguments = args as Record<string, unknown>;
  if (params._meta !== undefined) request.meta = params._meta;
  try {
    // The result as `item/completed` encoded it (one encoding for both, ADR 0022).
    return thread.encoder.response(itemId, await thread.session.callTool(request));
  } finally {
    stopCancel();
    thread.inflight.delete(itemId);
    thread.encoder.forget(itemId);
  }
}
