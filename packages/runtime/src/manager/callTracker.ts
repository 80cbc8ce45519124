/**
 * Per-call bookkeeping of a session: call ids, start/progress/completion events, the history
 * record (its start — and a new call id — made once the request is on its way — `record` — and
 * its end at completion, written as ADR 0022 says; both carry the view the call was made
 * through and the gateway caller who asked for it), the record of a call a view refused
 * (`refused`) or that failed before it reached a server (`unreached`), and Codex's `_meta` rule (an object
 * gets `threadId` set — a client's value is overwritten; a non-object is forwarded untouched;
 * absent becomes `{threadId}`).
 *
 * A call's bookkeeping is one `TrackedCall` object, not a set of closures made per call (ADR
 * 0023): at 50 warm-up calls the call path runs mostly in V8's interpreter, where every closure
 * and promise is paid for.
 */

import type { Mutable } from '@mcprt/base';

import type { CallSignal } from '../connection/callCancel.js';
import type { HistorySink } from '../history/types.js';
import type { RegistrationScope } from '../scope.js';
import type { CallerIdentity, RefusedCallRequest, ToolCallRequest } from './calls.js';
import { newCallId } from './callId.js';
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
  /**
   * Records the start (history, then the `started` event) — called once the request is on its
   * way to the server, so that the record's redaction and encoding run while the server works;
   * `progress` and `finish` record it first if it was not.
   */
  record(): void;
  progress(p: { progress: number; total?: number | undefined; message?: string | undefined }): void;
  /**
   * Records the outcome; once it is written `completed` is emitted. Returns the promise of that
   * when the write is batched (wait for it before reporting the call), undefined when it is done.
   */
  finish(
    result: Record<string, unknown> | null,
    error: string | null,
    signal?: CallSignal,
  ): Promise<void> | undefined;
  /** The server made the call a task: its reference goes to the history at once. */
  task(ref: { readonly taskId: string; readonly wire: 'core' | 'extension' }): void;
  /**
   * The host stops while the call's task runs on: no finish record, so the history keeps the
   * call unfinished with its task for the next host to resume (manager/sessionTasks.ts).
   */
  leave(): void;
}

/** History is best-effort for the caller: a full disk must not fail the tool call itself. */
function historyFailed(error: unknown): void {
  process.emitWarning(`mcprt: could not record tool call in history: ${(error as Error).message}`);
}

const NO_EMITTER: CallEmitter = {
  started: () => undefined,
  progress: () => undefined,
  completed: () => undefined,
};
const WARM_UP_SCOPE: RegistrationScope = { environmentId: null, name: 'warm-up' };

/**
 * Part of the call path's priming (manager/callPathWarmUp.ts, ADR 0027): one call's
 * bookkeeping run on a throw-away tracker that has no history and whose events go nowhere, so
 * that a session's first call runs compiled code. No record is written and no session emits
 * anything.
 */
export function warmUpCallTracker(): void {
  const tracker = new ToolCallTracker('warm-up', null, NO_EMITTER);
  const meta = withThreadId(undefined, tracker.threadId);
  isPlainObjectOrAbsent(meta);
  // No call id given: a new one is made (callId.ts), as for a library or `mcprt serve` call.
  const call = tracker.begin(WARM_UP_SCOPE, { tool: 'warm-up', arguments: { message: 'warm-up' } });
  call.record();
  call.finish({ content: [{ type: 'text', text: 'warm-up' }] }, null);
}

export class ToolCallTracker {
  /** Calls begun and not finished, and batched finish records not yet written (`finish`). */
  inFlight = 0;
  batchedWrites = 0;

  constructor(
    readonly threadId: string,
    readonly history: HistorySink | null,
    readonly emit: CallEmitter,
  ) {}

  begin(
    scope: RegistrationScope,
    request: {
      tool: string;
      arguments?: Record<string, unknown>;
      callId?: string;
      view?: string | undefined;
      caller?: CallerIdentity | undefined;
    },
  ): ActiveCall {
    const started: Mutable<ToolCallStarted> = {
      // A new id is made by `record`, once the request is on its way (nothing reads it before).
      id: request.callId ?? '',
      threadId: this.threadId,
      scope,
      server: scope.name,
      environmentId: scope.environmentId,
      tool: request.tool,
      arguments: request.arguments ?? null,
      startedAt: Date.now(),
      // Also the history record's (the start record is this object).
      view: request.view ?? null,
      caller: request.caller ?? null,
    };
    this.inFlight += 1;
    return new TrackedCall(this, started, request.callId === undefined);
  }

  /**
   * Record a call that never reached a server (its view does not include the tool): one start
   * and one finish record (status `refused`, `durationMs` 0 — it took no time on any server,
   * `result` null, `error` the refusal text), written together with the history's next write.
   * No event is emitted. Without a history nothing happens; a failed write is a warning.
   */
  refused(request: RefusedCallRequest): void {
    this.unsent(request, 'refused', Date.now());
  }

  /**
   * Record, as `refused` does, a call of a known registration that failed before it was sent:
   * the registration was not available (failed, disabled, still restarting after
   * `restart_wait_sec`) or the tool is disabled — status `failed` (`cancelled` when its signal
   * was aborted), `durationMs` from `startedAt` (the time spent waiting), the error text.
   */
  unreached(
    scope: RegistrationScope,
    request: Pick<ToolCallRequest, 'tool' | 'arguments' | 'callId' | 'view' | 'caller' | 'signal'>,
    error: string,
    startedAt: number,
  ): void {
    this.unsent(
      {
        server: scope.name,
        environmentId: scope.environmentId,
        tool: request.tool,
        arguments: request.arguments,
        view: request.view ?? null,
        error,
        ...(request.caller !== undefined ? { caller: request.caller } : {}),
        ...(request.callId !== undefined ? { callId: request.callId } : {}),
      },
      request.signal?.aborted === true ? 'cancelled' : 'failed',
      startedAt,
    );
  }

  /** One start and one finish record of a call no server received, written together. */
  private unsent(
    request: RefusedCallRequest,
    status: 'refused' | 'failed' | 'cancelled',
    startedAt: number,
  ): void {
    const history = this.history;
    if (history === null) return;
    const id = request.callId ?? newCallId(startedAt);
    try {
      history.started({
        id,
        threadId: this.threadId,
        server: request.server,
        environmentId: request.environmentId,
        tool: request.tool,
        arguments: request.arguments ?? null,
        startedAt,
        view: request.view,
        caller: request.caller ?? null,
      });
      history.finished(id, {
        status,
        result: null,
        error: request.error,
        durationMs: status === 'refused' ? 0 : Date.now() - startedAt,
      });
    } catch (error) {
      historyFailed(error);
    }
  }
}

/** One call's bookkeeping (fields `declare`d and assigned once, as `FastCall`'s: ADR 0023). */
class TrackedCall implements ActiveCall {
  declare private readonly tracker: ToolCallTracker;
  declare private readonly started: Mutable<ToolCallStarted>;
  /** The call id is the tracker's to make (`record`), not the caller's. */
  declare private readonly newId: boolean;
  declare private recorded: boolean;
  declare private announced: boolean;
  declare private announceLater: NodeJS.Immediate | undefined;
  declare private done: boolean;
  // Backpressure on progress floods: at most one event per PROGRESS_INTERVAL_MS per call;
  // the latest value always gets through (trailing emit, and flushed before completion).
  declare private lastEmit: number;
  declare private pending: ToolCallProgress | null;
  declare private timer: NodeJS.Timeout | undefined;

  constructor(tracker: ToolCallTracker, started: Mutable<ToolCallStarted>, newId: boolean) {
    this.tracker = tracker;
    this.started = started;
    this.newId = newId;
    this.recorded = false;
    this.announced = false;
    this.announceLater = undefined;
    this.done = false;
    this.lastEmit = 0;
    this.pending = null;
    this.timer = undefined;
  }

  record(): void {
    if (this.recorded) return;
    this.recorded = true;
    const started = this.started;
    // Made here, off the request's way out; its time part is the call's start (ADR 0028).
    if (this.newId) started.id = newCallId(started.startedAt);
    // A call is announced (`started`) only once its start record is written: when the sink says
    // so (`startedBatched`: with its next write, shared with the call's finish record when the
    // call is that quick, ADR 0022), at the end of this event-loop turn for a sink that writes
    // start records then, or earlier — after forcing the write — if progress comes first.
    const history = this.tracker.history;
    if (history === null) {
      this.announce();
    } else if (history.startedBatched !== undefined) {
      let written: Promise<void> | undefined;
      try {
        written = history.startedBatched(started);
      } catch (error) {
        historyFailed(error);
      }
      if (written) void written.then(() => this.announce());
      else this.announce();
    } else {
      try {
        history.started(started);
      } catch (error) {
        historyFailed(error);
      }
      if (history.finishedBatched !== undefined) {
        this.announceLater = setImmediate(() => this.announce());
      } else this.announce();
    }
  }

  announce(): void {
    if (this.announced) return;
    this.announced = true;
    if (this.announceLater !== undefined) clearImmediate(this.announceLater);
    this.tracker.emit.started(this.started);
  }

  progress(p: { progress: number; total?: number | undefined; message?: string | undefined }) {
    if (this.done) return;
    if (!this.recorded) this.record();
    if (!this.announced) {
      try {
        this.tracker.history?.flush?.();
      } catch (error) {
        historyFailed(error);
      }
      this.announce();
    }
    this.pending = {
      id: this.started.id,
      threadId: this.tracker.threadId,
      scope: this.started.scope,
      progress: p.progress,
      total: p.total ?? null,
      message: p.message ?? null,
    };
    const wait = this.lastEmit + PROGRESS_INTERVAL_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending) this.tracker.emit.progress(this.pending);
    this.pending = null;
    this.lastEmit = Date.now();
  }

  leave(): void {
    if (this.done) return;
    this.done = true;
    this.tracker.inFlight -= 1;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.tracker.history?.flush?.();
  }

  task(ref: { readonly taskId: string; readonly wire: 'core' | 'extension' }): void {
    if (this.done) return;
    if (!this.recorded) this.record();
    try {
      this.tracker.history?.taskCreated?.(this.started.id, { id: ref.taskId, wire: ref.wire });
    } catch (error) {
      historyFailed(error);
    }
  }

  finish(
    result: Record<string, unknown> | null,
    error: string | null,
    signal?: CallSignal,
  ): Promise<void> | undefined {
    if (this.done) return undefined;
    if (!this.recorded) this.record();
    if (this.pending !== null || this.timer !== undefined) this.flush();
    this.done = true;
    const tracker = this.tracker;
    tracker.inFlight -= 1;
    const started = this.started;
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
      view: started.view ?? null,
      caller: started.caller ?? null,
      status,
      result,
      error,
      durationMs: Date.now() - started.startedAt,
    };
    const history = tracker.history;
    if (history === null) {
      this.announce();
      tracker.emit.completed(completed);
      return undefined;
    }
    const outcome = { status: completed.status, result, error, durationMs: completed.durationMs };
    // The call is reported finished only once its record is written. While other calls of the
    // session are in flight (or their batched records unwritten), the records of calls finishing
    // in the same tick share one write (docs/performance.md), reported in order; a lone call's
    // record is written now, without the promise hops (ADR 0030).
    if (history.finishedBatched && (tracker.inFlight > 0 || tracker.batchedWrites > 0)) {
      tracker.batchedWrites += 1;
      return history.finishedBatched(started.id, outcome).then(() => {
        tracker.batchedWrites -= 1;
        this.announce();
        tracker.emit.completed(completed);
      });
    }
    try {
      history.finished(started.id, outcome);
    } catch (error) {
      historyFailed(error);
    }
    this.announce();
    tracker.emit.completed(completed);
    return undefined;
  }
}
