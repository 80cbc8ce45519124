/**
 * `history/list` (mcprt): recorded tool calls from the runtime's history store, newest first,
 * filtered by thread, server, environment, status and time, with cursor paging.
 */

import type { HistoryQuery } from '@mcprt/runtime';
import { HistoryCursorError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { internalError, invalidRequest } from '../errorMap.js';

interface HistoryListInput {
  readonly threadId?: string | null | undefined;
  readonly server?: string | null | undefined;
  readonly environmentId?: string | null | undefined;
  readonly threadWideOnly?: boolean | null | undefined;
  readonly status?: 'inProgress' | 'completed' | 'failed' | 'cancelled' | null | undefined;
  readonly since?: number | null | undefined;
  readonly until?: number | null | undefined;
  readonly cursor?: string | null | undefined;
  readonly limit?: number | null | undefined;
}

export async function listHistory(
  params: HistoryListInput | null | undefined,
  ctx: HandlerContext,
) {
  const store = ctx.state.runtime.history;
  if (!store) throw internalError('tool-call history is disabled (set [history] enabled = true)');
  const p = params ?? {};
  const query: HistoryQuery = {
    ...(p.threadId != null ? { threadId: p.threadId } : {}),
    ...(p.server != null ? { server: p.server } : {}),
    ...(p.threadWideOnly === true
      ? { environmentId: null }
      : p.environmentId != null
        ? { environmentId: p.environmentId }
        : {}),
    ...(p.status != null ? { status: p.status } : {}),
    ...(p.since != null ? { since: p.since } : {}),
    ...(p.until != null ? { until: p.until } : {}),
    ...(p.cursor != null ? { cursor: p.cursor } : {}),
    ...(p.limit != null ? { limit: p.limit } : {}),
  };
  try {
    return store.list(query);
  } catch (error) {
    if (error instanceof HistoryCursorError) throw invalidRequest(error.message);
    throw error;
  }
}
