/**
 * `mcpServer/task/list` (mcprt): tool calls the servers ran as MCP tasks, from the history, with
 * their state — the threads `history/list` would show this connection (a privileged connection:
 * every thread, earlier runs included, which is how a restarted host finds its tasks).
 */

import type { ToolCallStatus } from '@mcprt/runtime';
import { HistoryCursorError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { invalidRequest } from '../errorMap.js';
import { historyQuery } from './historyList.js';

interface TaskListInput {
  readonly threadId?: string | null | undefined;
  readonly status?: ToolCallStatus | null | undefined;
  readonly cursor?: string | null | undefined;
  readonly limit?: number | null | undefined;
}

export async function listTasks(params: TaskListInput | null | undefined, ctx: HandlerContext) {
  const { store, query } = historyQuery(params, ctx);
  try {
    return store.list({ ...query, tasks: true });
  } catch (error) {
    if (error instanceof HistoryCursorError) throw invalidRequest(error.message);
    throw error;
  }
}
