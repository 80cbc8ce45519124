/**
 * One recorded tool call, as stored and as listed. `status` is `inProgress` while the call runs
 * (a process killed mid-call leaves it so), then `completed`, `failed` (an error, or
 * `isError: true` with the result kept) or `cancelled`.
 */

export type ToolCallStatus = 'inProgress' | 'completed' | 'failed' | 'cancelled';

export interface ToolCallRecord {
  readonly id: string;
  readonly threadId: string;
  readonly server: string;
  /** Registration scope's environment (null: thread-wide). */
  readonly environmentId: string | null;
  readonly tool: string;
  /** Arguments with redacted keys replaced; null when the call had none. */
  readonly arguments: unknown;
  readonly status: ToolCallStatus;
  /** The result as stored (may be a truncated preview, see `resultTruncated`). */
  readonly result: unknown;
  readonly resultTruncated: boolean;
  readonly error: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly durationMs: number | null;
}

export interface HistoryQuery {
  readonly threadId?: string;
  /** Only calls of these threads (an empty list matches nothing). */
  readonly threadIds?: readonly string[];
  readonly server?: string;
  /** `null` selects thread-wide registrations only. */
  readonly environmentId?: string | null;
  readonly status?: ToolCallStatus;
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

/** Where a session records its tool calls. */
export interface HistorySink {
  started(
    record: Omit<ToolCallRecord, 'status' | 'result' | 'resultTruncated' | 'error' | 'durationMs'>,
  ): void;
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
  startedBatched?(
    record: Omit<ToolCallRecord, 'status' | 'result' | 'resultTruncated' | 'error' | 'durationMs'>,
  ): Promise<void>;
  /**
   * Like `finished`, written in one journal write with every other call finishing in the same
   * tick; resolves once written (a failed write is a warning, never a rejection). Callers must
   * wait for it before reporting the call as finished.
   */
  finishedBatched?(id: string, outcome: Parameters<HistorySink['finished']>[1]): Promise<void>;
  /** Write every record still pending (a sink that batches). Never throws. */
  flush?(): void;
}
