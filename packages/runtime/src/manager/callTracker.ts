/**
 * Per-call bookkeeping of a session: call ids, start/progress/completion events, the history
 * record (written synchronously at start and at completion), and Codex's `_meta` rule (an
 * object gets `threadId` set — a client's value is overwritten; a non-object is forwarded
 * untouched; absent becomes `{threadId}`).
 */

import { randomUUID } from 'node:crypto';

import type { HistorySink } from '../history/types.js';
import type { RegistrationScope } from '../scope.js';
import type { ToolCallCompleted, ToolCallProgress, ToolCallStarted } from './toolCallEvents.js';

/** Minimum spacing of progress events of one call (a flood is thinned, never reordered). */
export const PROGRESS_INTERVAL_MS = 20;

export function isPlainObjectOrAbsent(meta: unknown): boolean {
  return meta === undefined || meta === null || (typeof meta === 'object' && !Array.isArray(meta));
}

export function withThreadId(meta: unknown, threadId: string): unknown {
  if (meta === undefined || meta === null) return { threadId };
  if (typeof meta !== 'object' || Array.isArray(meta)) return meta;
  return { ...(meta as Record<string, unknown>), threadId };
}

export interface CallEmitter {
  started(e: ToolCallStarted): void;
  progress(e: ToolCallProgress): void;
  completed(e: ToolCallCompleted): void;
}

export interface ActiveCall {
  progress(p: { progress: number; total?: number | undefined; message?: string | undefined }): void;
  /** Records the outcome; resolves once it is written and `completed` was emitted. */
  finish(
    result: Record<string, unknown> | null,
    error: string | null,
    signal?: AbortSignal,
  ): Promise<void>;
}

export class ToolCallTracker {
  constructor(
    private readonly threadId: string,
    private readonly history: HistorySink | null,
    private readonly emit: CallEmitter,
  ) {}

  begin(
    scope: RegistrationScope,
    request: { tool: string; arguments?: Record<string, unknown>; callId?: string },
  ): ActiveCall {
    const started: ToolCallStarted = {
      id: request.callId ?? randomUUID(),
      threadId: this.threadId,
      scope,
      server: scope.name,
      environmentId: scope.environmentId,
      tool: request.tool,
      arguments: request.arguments ?? null,
      startedAt: Date.now(),
    };
    // A call is announced (`started`) only once its start record is written: when the sink says
    // so (`startedBatched`: with its next write, shared with the call's finish record when the
    // call is that quick, ADR 0022), at the end of this event-loop turn for a sink that writes
    // start records then, or earlier — after forcing the write — if progress comes first.
    let announced = false;
    let announceLater: NodeJS.Immediate | undefined;
    const announce = () => {
      if (announced) return;
      announced = true;
      clearImmediate(announceLater);
      this.emit.started(started);
    };
    const history = this.history;
    if (history?.startedBatched !== undefined) {
      let written: Promise<void> | undefined;
      this.safely(() => (written = history.startedBatched!(started)));
      if (written) void written.then(announce);
      else announce();
    } else {
      this.safely(() => history?.started(started));
      if (history?.finishedBatched !== undefined) announceLater = setImmediate(announce);
      else announce();
    }
    let done = false;
    // Backpressure on progress floods: at most one event per PROGRESS_INTERVAL_MS per call;
    // the latest value always gets through (trailing emit, and flushed before completion).
    let lastEmit = 0;
    let pending: ToolCallProgress | null = null;
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      if (pending) this.emit.progress(pending);
      pending = null;
      lastEmit = Date.now();
    };
    return {
      progress: (p) => {
        if (done) return;
        if (!announced) {
          this.safely(() => this.history?.flush?.());
          announce();
        }
        pending = {
          id: started.id,
          threadId: this.threadId,
          scope,
          progress: p.progress,
          total: p.total ?? null,
          message: p.message ?? null,
        };
        const wait = lastEmit + PROGRESS_INTERVAL_MS - Date.now();
        if (wait <= 0) flush();
        else timer ??= setTimeout(flush, wait);
      },
      finish: (result, error, signal) => {
        if (done) return Promise.resolve();
        flush();
        done = true;
        const status =
          error !== null
            ? signal?.aborted
              ? 'cancelled'
              : 'failed'
            : result?.['isError'] === true
              ? 'failed'
              : 'completed';
        // Written out, not spread: spreading `started` is the slowest line of a call's bookkeeping.
        const completed: ToolCallCompleted = {
          id: started.id,
          threadId: started.threadId,
          scope: started.scope,
          server: started.server,
          environmentId: started.environmentId,
          tool: started.tool,
          arguments: started.arguments,
          startedAt: started.startedAt,
          status,
          result,
          error,
          durationMs: Date.now() - started.startedAt,
        };
        const outcome = {
          status: completed.status,
          result,
          error,
          durationMs: completed.durationMs,
        };
        // Calls finishing in the same tick share one history transaction (docs/performance.md);
        // the call is reported finished only once its record is written.
        if (this.history?.finishedBatched) {
          return this.history.finishedBatched(started.id, outcome).then(() => {
            announce();
            this.emit.completed(completed);
          });
        }
        this.safely(() => this.history?.finished(started.id, outcome));
        announce();
        this.emit.completed(completed);
        return Promise.resolve();
      },
    };
  }

  /** History is best-effort for the caller: a full disk must not fail the tool call itself. */
  private safely(write: () => void): void {
    try {
      write();
    } catch (error) {
      process.emitWarning(
        `mcprt: could not record tool call in history: ${(error as Error).message}`,
      );
    }
  }
}
