/**
 * The history database (`history.sqlite`, WAL, `synchronous = NORMAL`, mode 0600), shared by
 * every process on a home: the schema, and `HistoryRows`, which applies journal records to it
 * (ADR 0017). A call whose start and finish arrive in the same batch is inserted once with its
 * outcome; a finish whose start came earlier updates the row. One record that cannot be stored
 * (e.g. a duplicate call id) is a warning and costs no other record of the batch. A database
 * made before calls recorded their view (no `view` column) or their caller (no `caller_subject`
 * and `caller_client_id` columns) gains the columns when opened: its rows read as made through
 * no view, by no caller (`migrateHistoryDb`).
 */

import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import type { FinishRow, JournalRecord, StartRow, TaskRow } from './journalLines.js';

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
  duration_ms INTEGER,
  view TEXT,
  caller_subject TEXT,
  caller_client_id TEXT,
  task_id TEXT,
  task_wire TEXT
);
CREATE INDEX IF NOT EXISTS tool_calls_started ON tool_calls (started_at);
CREATE INDEX IF NOT EXISTS tool_calls_thread ON tool_calls (thread_id);
CREATE INDEX IF NOT EXISTS tool_calls_server ON tool_calls (server, environment_id);
CREATE TABLE IF NOT EXISTS history_journals (
  file TEXT PRIMARY KEY,
  offset INTEGER NOT NULL
) WITHOUT ROWID;
`;

export function openHistoryDb(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  migrateHistoryDb(db);
  return db;
}

/** Columns added after the first schema, in the order they were added (each one last). */
const ADDED_COLUMNS: readonly string[] = [
  'view',
  'caller_subject',
  'caller_client_id',
  'task_id',
  'task_wire',
];

/**
 * Bring a database made by an older mcprt up to this schema, in place: `view`, then
 * `caller_subject` and `caller_client_id` (each added last, so an older process on the same home
 * — its inserts name their columns — still writes to it; its rows read as no view, no caller).
 * The check and the change are one `BEGIN IMMEDIATE` transaction, so two processes opening the
 * same old database at once add each column once.
 */
export function migrateHistoryDb(db: Database.Database): void {
  const missing = () => {
    const present = new Set(
      (db.prepare('PRAGMA table_info(tool_calls)').all() as { name: string }[]).map((c) => c.name),
    );
    return ADDED_COLUMNS.filter((column) => !present.has(column));
  };
  if (missing().length === 0) return;
  db.transaction(() => {
    for (const column of missing()) db.exec(`ALTER TABLE tool_calls ADD COLUMN ${column} TEXT`);
  }).immediate();
}

/** The warning a failed history write has always produced (the call itself goes on). */
export function warnOnFailure(write: () => unknown): void {
  try {
    write();
  } catch (error) {
    process.emitWarning(
      `mcprt: could not record tool call in history: ${(error as Error).message}`,
    );
  }
}

export class HistoryRows {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly taskUpdate: Database.Statement;
  private readonly pruneStatement: Database.Statement;
  private inserts = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly maxEntries: number,
  ) {
    this.insert = db.prepare(
      `INSERT INTO tool_calls (id, thread_id, server, environment_id, tool, arguments, status,
         result, result_truncated, error, started_at, duration_ms, view, caller_subject,
         caller_client_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.update = db.prepare(
      `UPDATE tool_calls SET status = ?, result = ?, result_truncated = ?, error = ?,
       duration_ms = ? WHERE id = ?`,
    );
    this.taskUpdate = db.prepare('UPDATE tool_calls SET task_id = ?, task_wire = ? WHERE id = ?');
    this.pruneStatement = db.prepare(
      'DELETE FROM tool_calls WHERE seq <= (SELECT MAX(seq) FROM tool_calls) - ?',
    );
  }

  /** Store `records` in journal order (the caller holds the transaction). Never throws. */
  apply(records: readonly JournalRecord[]): void {
    // Starts of this batch by id (the first one wins, as a duplicate id's insert fails), so a
    // finish in the same batch becomes part of the insert.
    const starts = new Map<string, { start: StartRow; finish: FinishRow | null }>();
    const ordered: ({ start: StartRow; finish: FinishRow | null } | FinishRow | TaskRow)[] = [];
    for (const record of records) {
      if (record.kind === 'task') {
        ordered.push(record.row);
        continue;
      }
      if (record.kind === 'start') {
        const entry = { start: record.row, finish: null };
        if (!starts.has(record.row.id)) starts.set(record.row.id, entry);
        ordered.push(entry);
        continue;
      }
      const pending = starts.get(record.row.id);
      if (pending && pending.finish === null) pending.finish = record.row;
      else ordered.push(record.row);
    }
    let inserted = 0;
    for (const item of ordered) {
      if ('start' in item) {
        const { start: s, finish: f } = item;
        warnOnFailure(() =>
          this.insert.run(
            s.id,
            s.threadId,
            s.server,
            s.environmentId,
            s.tool,
            s.arguments,
            f?.status ?? 'inProgress',
            f?.result ?? null,
            f?.truncated ?? 0,
            f?.error ?? null,
            s.startedAt,
            f?.durationMs ?? null,
            s.view,
            s.caller?.subject ?? null,
            s.caller?.clientId ?? null,
          ),
        );
        inserted += 1;
      } else if ('taskId' in item) {
        warnOnFailure(() => this.taskUpdate.run(item.taskId, item.wire, item.id));
      } else {
        warnOnFailure(() =>
          this.update.run(
            item.status,
            item.result,
            item.truncated,
            item.error,
            item.durationMs,
            item.id,
          ),
        );
      }
    }
    // Size cap: prune the oldest rows now and then (one indexed delete per 100 inserts).
    const before = this.inserts;
    this.inserts += inserted;
    if (Math.floor(this.inserts / 100) > Math.floor(before / 100))
      warnOnFailure(() => this.prune());
  }

  /** Delete all but the newest `maxEntries` calls. */
  prune(): void {
    this.pruneStatement.run(this.maxEntries);
  }
}
