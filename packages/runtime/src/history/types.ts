/**
 * One recorded tool call, as stored and as listed. `status` is `inProgress` while the call runs
 * (a process killed mid-call leaves it so), then `completed`, `failed` (an error, or
 * `isError: true` with the result kept) or `cancelled`. A `refused` call never reached a server
 * (the session's view does not include the tool): its `error` is the refusal text, its
 * `durationMs` 0 and its `result` null. `view` is the view the call was made through (null:
 * none; records written before views existed read as null). `caller` is who asked for it through
 * `mcprt serve` (null: no identified caller; records written before callers were recorded read
 * as null).
 */

/**
 * The identity of a gateway's caller as the history keeps it: the OAuth token's `sub` and client
 * id, never a token. A caller with neither is recorded as no caller (null).
 */
export interface HistoryCaller {
  readonly subject: string | null;
  readonly clientId: string | null;
}

export type ToolCallStatus = 'inProgress' | 'completed' | 'failed' | 'cancelled' | 'refused';

export interface ToolCallRecord {
  readonly id: string;
  readonly threadId: string;
  readonly server: string;
  /** Registration scope's environment (null: thread-wide). */
  readonly environmentId: string | null;
  readonly tool: string;
  /** Arguments with redacted keys replaced; null when the call had none. */
  readonly arguments: unknown;
  /** The view the call was made through; null when the session runs under none. */
  readonly view: string | null;
  /** Who asked for the call through the gateway (at least one of the two set); null: none. */
  readonly caller: HistoryCaller | null;
  readonly status: ToolCallStatus;
  /** The result as stored (may be a truncated preview, see `resultTruncated`). */
  readonly result: unknown;
  readonly resultTruncated: boolean;
  readonly error: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly durationMs: number | null;
  /** The task the server made of the call (null: none; connection/taskWire.ts). */
  readonly task: HistoryTask | null;
}

/** A call the server ran as a task: its id, and which wire it speaks (2025 core / 2026 extension). */
export interface HistoryTask {
  readonly id: string;
  readonly wire: 'core' | 'extension';
}

export interface HistoryQuery {
  readonly threadId?: string;
  /** Only calls of these threads (an empty list matches nothing). */
  readonly threadIds?: readonly string[];
  readonly server?: string;
  /** `null` selects thread-wide registrations only. */
  readonly environmentId?: string | null;
  /** Only calls made through this view; `null` selects calls made through none. */
  readonly view?: string | null;
  /** Only calls of this caller: its subject or its client id is exactly this. */
  readonly caller?: string;
  readonly status?: ToolCallStatus;
  /** Only the call with this id. */
  readonly id?: string;
  /** Only calls the server ran as tasks. */
  readonly tasks?: boolean;
  /** Inclusive lower bound on `startedAt` (epoch ms). */
  readonly since?: number;
  /** Exclusive upper bound on `startedAt` (epoch ms). */
  readonly until?: number;
  /** Opaque cursor from a previous page. */
  readonly cursor?: string;
  /** Page size (default 50, at most 500). */
  readonly limit?: number;
}

export interface HistoryPage {
  readonly data: ToolCallRecord[];
  readonly nextCursor: string | null;
}

/**
 * A call's start record as a sink receives it. `view` and `caller` may be left out (recorded as
 * null): a session's calls always set them (manager/callTracker.ts), other writers need not. A
 * caller whose subject and client id are both null is recorded as none.
 */
export type ToolCallStartRecord = Omit<
  ToolCallRecord,
  'status' | 'result' | 'resultTruncated' | 'error' | 'durationMs' | 'view' | 'caller' | 'task'
> & { readonly view?: string | null; readonly caller?: HistoryCaller | null };

/** Where a session records its tool calls. */
export interface HistorySink {
  started(record: ToolCallStartRecord): void;
  finished(
    id: string,
    outcome: {
      status: Exclude<ToolCallStatus, 'inProgress'>;
      result: unknown;
      error: string | null;
      durationMs: number;
    },
  ): void;
  /**
   * Like `started`, written with the store's next write or at the latest `START_WRITE_MS` later
   * (so a call that finishes that soon has its start and finish records in one write, ADR 0022);
   * resolves once written (a failed write is a warning, never a rejection). Callers must wait for
   * it before announcing the call.
   */
  startedBatched?(record: ToolCallStartRecord): Promise<void>;
  /**
   * Like `finished`, written in one journal write with every other call finishing in the same
   * tick; resolves once written (a failed write is a warning, never a rejection). Callers must
   * wait for it before reporting the call as finished.
   */
  finishedBatched?(id: string, outcome: Parameters<HistorySink['finished']>[1]): Promise<void>;
  /** Write every record still pending (a sink that batches). Never throws. */
  flush?(): void;
  /** The server made call `id` a task: written at once (a restarted host resumes it). */
  taskCreated?(id: string, task: HistoryTask): void;
}
