/** `mcpServer/tool/cancel` (mcprt): cancel an in-flight call of the thread by its item id. */

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { CANCELLED } from './toolCall.js';

export async function cancelTool(
  params: { threadId: string; itemId: string },
  ctx: HandlerContext,
) {
  const call = requireThread(ctx, params.threadId).inflight.get(params.itemId);
  if (!call) return { cancelled: false };
  call.abort(new Error(CANCELLED));
  return { cancelled: true };
}
