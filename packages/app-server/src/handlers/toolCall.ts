/**
 * `mcpServer/tool/call`: routes by `(server, environmentId?)` within the thread and returns the
 * MCP `CallToolResult` unchanged. Codex's rules: `arguments` must be a JSON object when present
 * (its error text); the thread id is injected into `_meta.threadId` (a client's value is
 * overwritten).
 */

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
  const meta =
    params._meta !== null && typeof params._meta === 'object' && !Array.isArray(params._meta)
      ? { ...(params._meta as Record<string, unknown>), threadId: thread.id }
      : { threadId: thread.id };
  return thread.session.callTool({
    server: params.server,
    tool: params.tool,
    ...(params.environmentId != null ? { environmentId: params.environmentId } : {}),
    ...(args != null ? { arguments: args as Record<string, unknown> } : {}),
    meta,
  });
}
