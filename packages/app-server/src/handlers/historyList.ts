/**
 * `history/list` (mcprt): recorded tool calls from the runtime's history store, newest first,
 * filtered by thread, server, environment, view, caller, status and time, with cursor paging. A connection
 * sees the calls of the threads it started; only a privileged connection (stdio, in-process:
 * the app-server's owner) sees every thread's, including other processes' and earlier runs'. A
 * `threadId` the connection did not start is `thread not found`, as for the other thread
 * methods (docs/security.md).
 */

import type { HistoryQuery, ToolCallStatus } from '@mcprt/runtime';
import { HistoryCursorError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { threadNotFound } from '../context.js';
import { internalError, invalidRequest } from '../errorMap.js';

interface HistoryListInput {
  readonly threadId?: string | null | undefined;
  readonly server?: string | null | undefined;
  readonly environmentId?: string | null | undefined;
  readonly threadWideOnly?: boolean | null | undefined;
  readonly view?: string | null | undefined;
  readonly caller?: string | null | undefined;
  readonly status?: ToolCallStatus | null | undefined;
  readonly since?: number | null | undefined;
  readonly until?: number | null | undefined;
  readonly cursor?: string | null | undefined;
  readonly limit?: number | null | undefined;
}

export async function listHistory(
  params: HistoryListInput | null | undefined,
  ctx: HandlerContext,
) {
  const { store, query } = historyQuery(params, ctx);
  try {
    return store.list(query);
  } catch (error) {
    if (error instanceof HistoryCursorError) throw invalidRequest(error.message);
    throw error;
  }
}

/** The store and the query for `params`, limited to the threads the connection may read. */
export function historyQuery(params: HistoryListInput | null | undefined, ctx: HandlerContext) {
  const store = ctx.state.runtime.history;
  if (!store) throw internalError('tool-call history is disabled (set [history] enabled = true)');
  const p = params ?? {};
  const own = ctx.peer.privileged ? null : ctx.state.threads.startedBy(ctx.peer);
  if (own !== null && p.threadId != null && !own.has(p.threadId)) throw threadNotFound(p.threadId);
  const query: HistoryQuery = {
    ...(p.threadId != null
      ? { threadId: p.threadId }
      : own !== null
        ? { threadIds: [...own] }
        : {}),
    ...(p.server != null ? { server: p.server } : {}),
    ...(p.threadWideOnly === true
      ? { environmentId: null }
      : p.environmentId != null
        ? { environmentId: p.environmentId }
        : {}),
    ...(p.view != null ? { view: p.view } : {}),
    ...(p.caller != null ? { caller: p.caller } : {}),
    ...(p.status != null ? { status: p.status } : {}),
    ...(p.since != null ? { since: p.since } : {}),
    ...(p.until != null ? { until: p.until } : {}),
    ...(p.cursor != null ? { cursor: p.cursor } : {}),
    ...(p.limit != null ? { limit: p.limit } : {}),
  };
  return { store, query };
}
