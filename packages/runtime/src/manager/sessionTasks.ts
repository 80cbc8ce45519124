/**
 * Tool calls the servers ran as tasks, seen from a session: the history holds each one's task
 * reference (recorded when the server made it, connection/taskWire.ts), so a task whose host
 * stopped — restarted, killed — is followed again (`resume`) through this session's registration
 * of the same server and environment, and its result lands in the same history record. A task is
 * followed once per history store however many sessions ask (they share the promise). A task the
 * server no longer knows ends as failed with the server's answer.
 */

import type { CallToolResult, ProgressUpdate } from '../connection/mcpTypes.js';
import { UnknownServerError } from '../errors.js';
import type { HistoryPage, HistoryQuery, HistorySink, ToolCallRecord } from '../history/types.js';
import type { Router } from './router.js';

/** A history that can be read back (the runtime's SQLite store). */
interface ReadableHistory extends HistorySink {
  list(query?: HistoryQuery): HistoryPage;
}

export interface SessionTasksContext {
  readonly router: Router;
  readonly history: HistorySink | null;
}

export interface ResumeOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ProgressUpdate) => void;
}

/** Tasks followed by this process, per history store (callId → the record once finished). */
const following = new WeakMap<object, Map<string, Promise<ToolCallRecord>>>();

export class TaskNotFoundError extends Error {
  readonly code = 'TASK_NOT_FOUND';
}

export class SessionTasks {
  constructor(private readonly ctx: SessionTasksContext) {}

  /** Calls run as tasks, newest first (the history's filters apply). */
  list(query: Omit<HistoryQuery, 'tasks'> = {}): HistoryPage {
    const history = this.readable();
    if (history === null) return { data: [], nextCursor: null };
    return history.list({ ...query, tasks: true });
  }

  /** The record of call `callId` if the server ran it as a task. */
  record(callId: string): ToolCallRecord | null {
    return this.list({ id: callId, limit: 1 }).data[0] ?? null;
  }

  /**
   * The finished record of task call `callId`: as stored when it has ended, else once this
   * process has followed the task to its end (started now unless already under way).
   */
  resume(callId: string, options: ResumeOptions = {}): Promise<ToolCallRecord> {
    const history = this.readable();
    const record = this.record(callId);
    if (history === null || record === null || record.task === null) {
      return Promise.reject(new TaskNotFoundError(`no tool call ${callId} ran as a task`));
    }
    if (record.status !== 'inProgress') return Promise.resolve(record);
    let table = following.get(history);
    if (table === undefined) following.set(history, (table = new Map()));
    const running = table.get(callId);
    if (running !== undefined) return running;
    const followed = this.follow(history, record, options).finally(() => table.delete(callId));
    table.set(callId, followed);
    return followed;
  }

  /** Resume every unfinished task this session's registrations can reach (in the background). */
  resumeAll(): Promise<ToolCallRecord>[] {
    const unfinished = this.list({ status: 'inProgress', limit: 500 }).data;
    const reachable = unfinished.filter((record) => this.reachable(record));
    return reachable.map((record) => {
      const done = this.resume(record.id);
      done.catch(() => undefined);
      return done;
    });
  }

  private reachable(record: ToolCallRecord): boolean {
    try {
      this.ctx.router.resolve(record.server, record.environmentId);
      return true;
    } catch {
      return false;
    }
  }

  private async follow(
    history: ReadableHistory,
    record: ToolCallRecord,
    options: ResumeOptions,
  ): Promise<ToolCallRecord> {
    const task = record.task!;
    let result: CallToolResult | null = null;
    let error: string | null = null;
    try {
      const { reg, connection } = await this.ctx.router.live(record.server, record.environmentId);
      const config = reg.config ?? connection.config;
      result = await connection.resumeTask(
        { taskId: task.id, wire: task.wire },
        {
          timeoutMs: config.toolTimeoutMs,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        },
      );
    } catch (failure) {
      if (failure instanceof UnknownServerError) throw failure;
      // The session closes under it: the record stays unfinished, for the next host.
      if (this.ctx.router.isClosed()) return record;
      error = `task ${task.id} of \`${record.tool}\`: ${(failure as Error).message ?? String(failure)}`;
    }
    const status = options.signal?.aborted
      ? 'cancelled'
      : error !== null || result?.isError === true
        ? 'failed'
        : 'completed';
    history.finished(record.id, {
      status,
      result,
      error,
      durationMs: Date.now() - record.startedAt,
    });
    history.flush?.();
    return this.record(record.id) ?? record;
  }

  private readable(): ReadableHistory | null {
    const history = this.ctx.history as Partial<ReadableHistory> | null;
    return history !== null && typeof history.list === 'function'
      ? (history as ReadableHistory)
      : null;
  }
}
