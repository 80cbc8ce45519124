/**
 * `mcpServer/task/result` (mcprt): the finished history record of a call the server ran as a
 * task, once the task has ended — followed again through the asking thread's registration of the
 * same server and environment when no one follows it any more (the process that started it was
 * restarted or killed, runtime manager/sessionTasks.ts). The asking thread gets `item/completed`
 * for the call. A call the connection may not read (another connection's thread) is `task not
 * found`, as one that never ran as a task.
 */

import type { ToolCallCompleted, ToolCallRecord } from '@mcprt/runtime';
import { TaskNotFoundError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { invalidRequest } from '../errorMap.js';
import { toolCallItem } from '../threadEvents.js';
import { historyQuery } from './historyList.js';

interface TaskResultInput {
  readonly threadId: string;
  readonly callId: string;
}

export async function taskResult(params: TaskResultInput, ctx: HandlerContext) {
  const thread = requireThread(ctx, params.threadId);
  const { store, query } = historyQuery({}, ctx);
  const notFound = () => invalidRequest(`task not found: ${params.callId}`);
  const [record] = store.list({ ...query, id: params.callId, tasks: true, limit: 1 }).data;
  if (record === undefined) throw notFound();
  let entry: ToolCallRecord;
  try {
    entry = await thread.session.tasks.resume(record.id);
  } catch (error) {
    if (error instanceof TaskNotFoundError) throw notFound();
    throw error;
  }
  if (entry.status !== 'inProgress') {
    ctx.peer.notify('item/completed', {
      threadId: thread.id,
      turnId: entry.id,
      item: toolCallItem(completedEvent(thread.id, entry)),
      completedAtMs: entry.startedAt + (entry.durationMs ?? 0),
    });
  }
  return { entry };
}

/** The record as the tool-call event the thread's items are made from. */
function completedEvent(threadId: string, r: ToolCallRecord): ToolCallCompleted {
  return {
    id: r.id,
    threadId,
    scope: { name: r.server, environmentId: r.environmentId },
    server: r.server,
    environmentId: r.environmentId,
    tool: r.tool,
    arguments: (r.arguments as Record<string, unknown> | null) ?? null,
    startedAt: r.startedAt,
    view: r.view,
    caller: r.caller,
    status:
      r.status === 'completed' ? 'completed' : r.status === 'cancelled' ? 'cancelled' : 'failed',
    result: (r.result as Record<string, unknown> | null) ?? null,
    error: r.error,
    durationMs: r.durationMs ?? 0,
  };
}
