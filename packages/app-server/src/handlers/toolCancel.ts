/** `mcpServer/tool/cancel` (mcprt): cancel an in-flight call of the thread by its item id. */

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';

export async function cancelTool(
  params: { threadId: string; itemId: string },
  ctx: HandlerContext,
) {
  const controller = requireThread(ctx, params.threadId).inflight.get(params.itemId);
  if (!controller) return { cancelled: false };
  controller.abort(new Error('tool call cancelled by the client'));
  return { cancelled: true };
}
