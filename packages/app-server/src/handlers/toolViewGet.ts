/**
 * `thread/toolView/get` (mcprt extension): what the thread's view lists and what its tool
 * definitions cost in tokens (the runtime's `ToolView.cost()`, docs/tool-shaping.md) — per
 * registration with tools in the view, and in total with tool search off and on — for the TUI's
 * `/mcp` and any host that budgets context. `view` as for `mcpServer/tool/search` (absent or
 * null: the thread's own); it waits for the thread's servers to settle likewise. Without a view
 * there is no threshold: `thresholdTokens` is null.
 */

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { settledToolView } from './toolSearch.js';

interface ToolViewGetInput {
  readonly threadId: string;
  readonly view?: string | null | undefined;
}

export async function getToolView(params: ToolViewGetInput, ctx: HandlerContext) {
  const thread = requireThread(ctx, params.threadId);
  // ViewCost is plain data already (no Infinity; scopes spelled out).
  return (await settledToolView(thread.session, params.view ?? null)).cost();
}
