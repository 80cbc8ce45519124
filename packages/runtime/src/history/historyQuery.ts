/**
 * Reading the history database: `history/list` and `mcprt history` filters (thread, server,
 * environment, view, caller, status, time), newest first, with an opaque cursor (the row's `seq`).
 * The caller filter matches a record whose caller's subject or client id is exactly the text.
 */

import type Database from 'better-sqlite3';

import type { HistoryPage, HistoryQuery, ToolCallRecord, ToolCallStatus } from './types.js';

interface Row {
  id: string;
  thread_id: string;
  server: string;
  environment_id: string | null;
  tool: string;
  arguments: string | null;
  status: ToolCallStatus;
  result: string | null;
  result_truncated: number;
  error: string | null;
  started_at: number;
  duration_ms: number | null;
  task_id: string | null;
  task_wire: 'core' | 'extension' | null;
  view: string | null;
  caller_subject: string | null;
  caller_client_id: string | null;
  seq: number;
}

export class HistoryCursorError extends Error {}

export function queryHistory(db: Database.Database, query: HistoryQuery): HistoryPage {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (clause: string, key?: string, value?: unknown) => {
    where.push(clause);
    if (key !== undefined) params[key] = value;
  };
  if (query.threadId !== undefined) add('thread_id = @threadId', 'threadId', query.threadId);
  if (query.threadIds !== undefined) {
    if (query.threadIds.length === 0) return { data: [], nextCursor: null };
    const names = query.threadIds.map((id, i) => {
      params[`thread${i}`] = id;
      return `@thread${i}`;
    });
    add(`thread_id IN (${names.join(', ')})`);
  }
  if (query.server !== undefined) add('server = @server', 'server', query.server);
  if (query.environmentId === null) add('environment_id IS NULL');
  else if (query.environmentId !== undefined) {
    add('environment_id = @environmentId', 'environmentId', query.environmentId);
  }
  if (query.view === null) add('view IS NULL');
  else if (query.view !== undefined) add('view = @view', 'view', query.view);
  if (query.caller !== undefined) {
    add('(caller_subject = @caller OR caller_client_id = @caller)', 'caller', query.caller);
  }
  if (query.status !== undefined) add('status = @status', 'status', query.status);
  if (query.id !== undefined) add('id = @id', 'id', query.id);
  if (query.tasks === true) add('task_id IS NOT NULL');
  if (query.since !== undefined) add('started_at >= @since', 'since', query.since);
  if (query.until !== undefined) add('started_at < @until', 'until', query.until);
  if (query.cursor !== undefined) add('seq < @cursor', 'cursor', decodeCursor(query.cursor));
  const limit = Math.min(500, Math.max(1, query.limit ?? 50));
  const rows = db
    .prepare(
      `SELECT * FROM tool_calls ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${limit + 1}`,
    )
    .all(params) as Row[];
  const page = rows.slice(0, limit);
  return {
    data: page.map(toRecord),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
  };
}

function decodeCursor(cursor: string): number {
  if (!/^\d+$/.test(cursor)) throw new HistoryCursorError(`invalid cursor: ${cursor}`);
  return Number(cursor);
}

function toRecord(row: Row): ToolCallRecord {
  return {
    id: row.id,
    threadId: row.thread_id,
    server: row.server,
    environmentId: row.environment_id,
    tool: row.tool,
    arguments: row.arguments === null ? null : JSON.parse(row.arguments),
    view: row.view,
    caller:
      row.caller_subject === null && row.caller_client_id === null
        ? null
        : { subject: row.caller_subject, clientId: row.caller_client_id },
    status: row.status,
    result: row.result === null ? null : JSON.parse(row.result),
    resultTruncated: row.result_truncated === 1,
    error: row.error,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    task:
      row.task_id === null || row.task_wire === null
        ? null
        : { id: row.task_id, wire: row.task_wire },
  };
}
