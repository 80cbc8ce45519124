/**
 * `mcpServer/task/list` and `mcpServer/task/result` (mcprt extensions): tool calls the servers
 * ran as MCP tasks, from the history — listed with their state, and a task's final record,
 * waited for (and resumed, when the process that started it is gone) with `item/completed`
 * sent to the asking thread.
 */

import { z } from 'zod';

import { HistoryCallStatus, HistoryEntry } from './history.js';

export const McpServerTaskListParams = z
  .object({
    threadId: z
      .string()
      .nullish()
      .describe(
        'Omitted: every thread this connection started (a privileged connection: every thread, earlier runs included).',
      ),
    status: HistoryCallStatus.nullish().describe('`inProgress`: tasks not finished yet.'),
    cursor: z.string().nullish(),
    limit: z.int().min(1).max(500).nullish(),
  })
  .nullish()
  .meta({ title: 'McpServerTaskListParams' });
export type McpServerTaskListParams = z.infer<typeof McpServerTaskListParams>;

export const McpServerTaskListResult = z
  .object({ data: z.array(HistoryEntry), nextCursor: z.string().nullable() })
  .meta({ title: 'McpServerTaskListResult' });
export type McpServerTaskListResult = z.infer<typeof McpServerTaskListResult>;

export const McpServerTaskResultParams = z
  .object({
    threadId: z
      .string()
      .describe('The asking thread: it gets `item/completed` for the call once the task ends.'),
    callId: z.string().describe('The call (item) id, as `mcpServer/task/list` gives it.'),
  })
  .meta({ title: 'McpServerTaskResultParams' });
export type McpServerTaskResultParams = z.infer<typeof McpServerTaskResultParams>;

export const McpServerTaskResultResult = z
  .object({ entry: HistoryEntry.describe('The finished record (status, result or error).') })
  .meta({ title: 'McpServerTaskResultResult' });
export type McpServerTaskResultResult = z.infer<typeof McpServerTaskResultResult>;
