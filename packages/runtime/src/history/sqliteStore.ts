/**
 * The durable tool-call history: one SQLite file (`$MCPRT_HOME/history.sqlite`, WAL mode,
 * better-sqlite3). Writes are synchronous, so a call recorded as finished survives the process
 * being killed right after. Every session of every process on the same home shares the file.
 * Start records are written at the end of the current event-loop turn (`setImmediate`), all of
 * that turn's in one transaction, so the insert runs while the request is already on its way to
 * the server instead of before it; `finished`, `list` and `close` write pending ones first, and
 * so does process exit. `finishedBatched` writes the finish records of calls completing in the
 * same tick in one transaction, before any of them is reported (docs/performance.md). Arguments,
 * results and error texts are stored redacted (history/redact.ts).
 */

import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import { capResult, Redactor } from './redact.js';
import type {
  HistoryPage,
  HistoryQuery,
  HistorySink,
  ToolCallRecord,
  ToolCallStatus,
} from './types.js';

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
  seq: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tool_calls (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  thread_id TEXT NOT NULL,
  server TEXT NOT NULL,
  environment_id TEXT,
  tool TEXT NOT NULL,
  arguments TEXT,
  status TEXT NOT NULL,
  result TEXT,
  result_truncated INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER
);
CREATE INDEX IF NOT EXISTS tool_calls_started ON tool_calls (started_at);
CREATE INDEX IF NOT EXISTS tool_calls_thread ON tool_calls (thread_id);
CREATE INDEX IF NOT EXISTS tool_calls_server ON tool_calls (server, environment_id);
`;

export interface HistoryStoreOptions {
  /** Secret key names besides the default rules (history/redact.ts). */
  readonly redactKeys: readonly string[];
  /** Only `redactKeys` are secret keys (value patterns still apply). */
  readonly redactKeysReplace?: boolean;
  readonly maxResultBytes: number;
  /** Keep at most this many calls; older ones are pruned (default 100 000). */
  readonly maxEntries?: number;
}

export const DEFAULT_MAX_ENTRIES = 100_000;

type StartedRecord = Parameters<HistorySink['started']>[0];

/** Stores with records not yet written, flushed on process exit. */
const unflushed = new Set<SqliteHistoryStore>();
let exitHookInstalled = false;

export class SqliteHistoryStore implements HistorySink {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly pruneStatement: Database.Statement;
  private readonly insertMany: (rows: readonly Record<string, unknown>[]) => void;
  private readonly updateMany: (rows: readonly Record<string, unknown>[]) => void;
  private readonly redactor: Redactor;
  private pending: Record<string, unknown>[] = [];
  private flushScheduled: NodeJS.Immediate | undefined;
  private pendingUpdates: Record<string, unknown>[] = [];
  private updateWaiters: (() => void)[] = [];

  constructor(
    readonly file: string,
    private readonly options: HistoryStoreOptions,
  ) {
    this.redactor = new Redactor(options.redactKeys, {
      replaceDefaults: options.redactKeysReplace === true,
    });
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    this.db = new Database(file);
    chmodSync(file, 0o600);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.insert = this.db.prepare(
      `INSERT INTO tool_calls (id, thread_id, server, environment_id, tool, arguments, status, started_at)
       VALUES (@id, @threadId, @server, @environmentId, @tool, @arguments, 'inProgress', @startedAt)`,
    );
    this.update = this.db.prepare(
      `UPDATE tool_calls SET status = @status, result = @result, result_truncated = @truncated,
       error = @error, duration_ms = @durationMs WHERE id = @id`,
    );
    this.pruneStatement = this.db.prepare(
      'DELETE FROM tool_calls WHERE seq <= (SELECT MAX(seq) FROM tool_calls) - ?',
    );
    this.insertMany = this.db.transaction((rows: readonly Record<string, unknown>[]) => {
      for (const row of rows) this.insert.run(row);
    });
    this.updateMany = this.db.transaction((rows: readonly Record<string, unknown>[]) => {
      for (const row of rows) this.update.run(row);
    });
  }

  started(record: StartedRecord): void {
    this.pending.push({
      id: record.id,
      threadId: record.threadId,
      server: record.server,
      environmentId: record.environmentId,
      tool: record.tool,
      arguments:
        record.arguments === undefined || record.arguments === null
          ? null
          : JSON.stringify(this.redactor.value(record.arguments)),
      startedAt: record.startedAt,
    });
    if (this.flushScheduled === undefined) {
      this.flushScheduled = setImmediate(() => this.flushStarted());
      this.flushOnExit();
    }
  }

  private flushOnExit(): void {
    unflushed.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const store of unflushed) store.flushUpdates();
      });
    }
  }

  /**
   * Write pending start records: one transaction; if it fails (e.g. a duplicate id), one by one,
   * so one bad record never costs the others. Never throws: history is best-effort for callers.
   */
  private flushStarted(): void {
    if (this.flushScheduled !== undefined) clearImmediate(this.flushScheduled);
    this.flushScheduled = undefined;
    if (this.pendingUpdates.length === 0) unflushed.delete(this);
    const rows = this.pending;
    if (rows.length === 0) return;
    this.pending = [];
    try {
      if (rows.length === 1) this.insert.run(rows[0]);
      else this.insertMany(rows);
    } catch {
      for (const row of rows) warnOnFailure(() => this.insert.run(row));
    }
    // Size cap: prune the oldest rows now and then (cheap: one indexed delete per 100 inserts).
    const before = this.inserts;
    this.inserts += rows.length;
    if (Math.floor(this.inserts / 100) > Math.floor(before / 100))
      warnOnFailure(() => this.prune());
  }

  private inserts = 0;

  /** Delete all but the newest `maxEntries` calls. */
  prune(): void {
    const keep = this.options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.pruneStatement.run(keep);
  }

  finished(id: string, outcome: Parameters<HistorySink['finished']>[1]): void {
    this.flushUpdates(); // its start record (and earlier finishes) must be written first
    this.update.run(this.updateRow(id, outcome));
  }

  finishedBatched(id: string, outcome: Parameters<HistorySink['finished']>[1]): Promise<void> {
    const row = this.updateRow(id, outcome);
    return new Promise((resolve) => {
      this.pendingUpdates.push(row);
      this.updateWaiters.push(resolve);
      if (this.pendingUpdates.length === 1) {
        this.flushOnExit();
        queueMicrotask(() => this.flushUpdates());
      }
    });
  }

  /** Write every pending record now (start records first). Never throws. */
  flush(): void {
    this.flushUpdates();
  }

  /** Write pending start records, then pending finish records (one transaction). */
  private flushUpdates(): void {
    this.flushStarted();
    const rows = this.pendingUpdates;
    const waiters = this.updateWaiters;
    this.pendingUpdates = [];
    this.updateWaiters = [];
    unflushed.delete(this);
    if (rows.length === 0) return;
    try {
      if (rows.length === 1) this.update.run(rows[0]);
      else this.updateMany(rows);
    } catch {
      for (const row of rows) warnOnFailure(() => this.update.run(row));
    }
    for (const resolve of waiters) resolve();
  }

  private updateRow(
    id: string,
    outcome: Parameters<HistorySink['finished']>[1],
  ): Record<string, unknown> {
    const stored = this.storedResult(outcome.result);
    return {
      id,
      status: outcome.status,
      result: stored.json,
      truncated: stored.truncated ? 1 : 0,
      error:
        outcome.error === null
          ? null
          : capText(this.redactor.text(outcome.error), this.options.maxResultBytes),
      durationMs: outcome.durationMs,
    };
  }

  /**
   * The result as stored: redacted, then capped. A result over the cap is never redacted whole
   * (it may be huge): its stored preview is scanned as text instead.
   */
  private storedResult(result: unknown): { json: string | null; truncated: boolean } {
    const max = this.options.maxResultBytes;
    const capped = capResult(result, max);
    if (!capped.truncated) return capResult(this.redactor.value(result), max);
    const marker = JSON.parse(capped.json!) as { preview: string };
    return {
      json: JSON.stringify({ ...marker, preview: this.redactor.text(marker.preview) }),
      truncated: true,
    };
  }

  list(query: HistoryQuery = {}): HistoryPage {
    this.flushUpdates();
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
    if (query.status !== undefined) add('status = @status', 'status', query.status);
    if (query.since !== undefined) add('started_at >= @since', 'since', query.since);
    if (query.until !== undefined) add('started_at < @until', 'until', query.until);
    if (query.cursor !== undefined) add('seq < @cursor', 'cursor', decodeCursor(query.cursor));
    const limit = Math.min(500, Math.max(1, query.limit ?? 50));
    const rows = this.db
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

  close(): void {
    this.flushUpdates();
    this.db.close();
  }
}

export class HistoryCursorError extends Error {}

/** The warning a failed history write has always produced (the call itself goes on). */
function warnOnFailure(write: () => unknown): void {
  try {
    write();
  } catch (error) {
    process.emitWarning(
      `mcprt: could not record tool call in history: ${(error as Error).message}`,
    );
  }
}

function decodeCursor(cursor: string): number {
  if (!/^\d+$/.test(cursor)) throw new HistoryCursorError(`invalid cursor: ${cursor}`);
  return Number(cursor);
}

function capText(text: string, maxBytes: number): string {
  return Buffer.byteLength(text) <= maxBytes
    ? text
    : `${Buffer.from(text).subarray(0, maxBytes).toString('utf8')}… [truncated]`;
}

function toRecord(row: Row): ToolCallRecord {
  return {
    id: row.id,
    threadId: row.thread_id,
    server: row.server,
    environmentId: row.environment_id,
    tool: row.tool,
    arguments: row.arguments === null ? null : JSON.parse(row.arguments),
    status: row.status,
    result: row.result === null ? null : JSON.parse(row.result),
    resultTruncated: row.result_truncated === 1,
    error: row.error,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
  };
}
