/**
 * `mcpServer/tool/search` (mcprt extension): the thread's view searched as the gateway's
 * `search_tools` searches it (the runtime's `ToolView.search`, docs/tool-shaping.md), for hosts
 * that defer tool definitions themselves. `view` absent or null: the thread's own view (the whole
 * inventory when it has none); a name: that view — calls are still checked against the thread's
 * own. The search waits until the thread's servers have settled (each within its startup
 * timeout), so a search right after `thread/start` does not miss a server still starting. A
 * blank query, a bad `limit` and an unknown view are invalid requests; another connection's
 * thread is `thread not found`.
 */

import type { Session, ToolView } from '@mcprt/runtime';
import { DEFAULT_SEARCH_LIMIT } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { invalidRequest } from '../errorMap.js';

interface ToolSearchInput {
  readonly threadId: string;
  readonly query: string;
  readonly limit?: number | null | undefined;
  readonly view?: string | null | undefined;
}

export async function searchTools(params: ToolSearchInput, ctx: HandlerContext) {
  const thread = requireThread(ctx, params.threadId);
  if (params.query.trim() === '') {
    throw invalidRequest('Invalid request: invalid value: expected a non-blank string at `query`');
  }
  const view = await settledToolView(thread.session, params.view ?? null);
  const hits = view.search(params.query, params.limit ?? DEFAULT_SEARCH_LIMIT);
  return {
    tools: hits.map((h) => ({
      name: h.name,
      server: h.server,
      environmentId: h.environmentId,
      description: h.description,
      score: h.score,
    })),
  };
}

/**
 * The view `name` (null: the session's own) over the session's inventory once its servers have
 * settled. An unknown or invalid view throws `UnknownViewError` at once (an invalid request on
 * the wire, errorMap.ts), before any waiting.
 */
export async function settledToolView(session: Session, name: string | null): Promise<ToolView> {
  const own = name ?? session.view;
  session.toolView(own);
  // A required server that failed is a status, not this request's error.
  await session.ready().catch(() => undefined);
  return session.toolView(own);
}
