/**
 * Moves journalled history records into SQLite (ADR 0017), off the call path: each batch is one
 * `BEGIN IMMEDIATE` transaction that reads the file's ingested offset (table `history_journals`),
 * stores the complete lines after it and advances the offset — so any process on the home may
 * ingest any journal, a live one included, and no line is ever stored twice. A family's files
 * are ingested in order. A closed file (a newer one exists), or every file of a dead owner, is
 * deleted once ingested: file first, then its offset row (a crash in between leaves a row without
 * a file, which is dropped later). A line that is not a record is a warning naming the file and
 * byte offset, and is skipped; a dead owner's torn last line (killed inside a write) likewise.
 */

import { closeSync, fstatSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type Database from 'better-sqlite3';

import type { HistoryRows } from './historyDb.js';
import type { JournalName } from './journalFiles.js';
import { familiesOf, ownerIsDead } from './journalFiles.js';
import type { JournalRecord } from './journalLines.js';
import { parseJournalLine } from './journalLines.js';

/** Bytes read per idle-time batch (one transaction); a longer line is read whole. */
export const BATCH_BYTES = 128 * 1024;
/**
 * Bytes per batch when catching up (`list`, `close`, recovery), where the caller waits for the
 * whole backlog anyway: fewer, larger transactions cost less per record (ADR 0024).
 */
export const CATCH_UP_BATCH_BYTES = 1024 * 1024;

export interface BatchOutcome {
  /** Bytes of the file stored (or skipped) by this batch. */
  readonly consumed: number;
  /** Bytes of the file not yet ingested after this batch (0: caught up). */
  readonly remaining: number;
}

const NOTHING: BatchOutcome = { consumed: 0, remaining: 0 };

export class JournalIngester {
  private readonly getOffset: Database.Statement;
  private readonly setOffset: Database.Statement;
  private readonly dropOffset: Database.Statement;
  private readonly allOffsets: Database.Statement;
  private readonly batchTx: (file: string, last: boolean, bytes: number) => BatchOutcome;

  constructor(
    private readonly db: Database.Database,
    readonly dir: string,
    private readonly rows: HistoryRows,
  ) {
    this.getOffset = db.prepare('SELECT offset FROM history_journals WHERE file = ?').pluck();
    this.setOffset = db.prepare(
      'INSERT INTO history_journals (file, offset) VALUES (?, ?) ON CONFLICT (file) DO UPDATE SET offset = excluded.offset',
    );
    this.dropOffset = db.prepare('DELETE FROM history_journals WHERE file = ?');
    this.allOffsets = db.prepare('SELECT file, offset FROM history_journals');
    const tx = db.transaction((file: string, last: boolean, bytes: number) =>
      this.batch(file, last, bytes),
    );
    this.batchTx = (file, last, bytes) => tx.immediate(file, last, bytes);
  }

  /**
   * Ingest one batch of `file` (at most ~`bytes`). `final`: no more lines will be written to
   * it (closed, or its owner is dead), so a torn last line is dropped instead of waited for.
   */
  ingestBatch(file: string, final = false, bytes = BATCH_BYTES): BatchOutcome {
    return this.batchTx(file, final, bytes);
  }

  /** Ingest `file` to its end (to its last complete line, unless `final`). */
  catchUp(file: string, final = false): void {
    for (;;) {
      const { consumed, remaining } = this.ingestBatch(file, final, CATCH_UP_BATCH_BYTES);
      if (consumed === 0 || remaining === 0) return;
    }
  }

  /** Delete an ingested file, then its offset. */
  forget(file: string): void {
    rmSync(join(this.dir, file), { force: true });
    this.dropOffset.run(file);
  }

  /**
   * Ingest every journal of the directory (what `list` shows at once, whoever wrote it) and
   * delete what is no longer needed: closed files, and dead owners' files. `deadOnly`: only dead
   * owners' families (recovery at start-up).
   */
  catchUpAll(options: { deadOnly?: boolean } = {}): void {
    let files: string[];
    try {
      files = readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const offsets = new Map(
      (this.allOffsets.all() as { file: string; offset: number }[]).map((r) => [r.file, r.offset]),
    );
    const present = new Set(files);
    for (const file of offsets.keys()) if (!present.has(file)) this.dropOffset.run(file);
    for (const names of familiesOf(files).values()) {
      const dead = ownerIsDead(names[0]!);
      if (options.deadOnly && !dead) continue;
      names.forEach((name, i) => this.settle(name, dead || i < names.length - 1, offsets));
    }
  }

  /** Ingest one file of a family; delete it when `closed` (no more writes) and ingested. */
  private settle(name: JournalName, closed: boolean, offsets: Map<string, number>): void {
    if (!closed && !this.hasNew(name.file, offsets.get(name.file) ?? 0)) return;
    this.catchUp(name.file, closed);
    if (closed) this.forget(name.file);
  }

  private hasNew(file: string, offset: number): boolean {
    try {
      return statSync(join(this.dir, file)).size > offset;
    } catch {
      return false;
    }
  }

  /** One batch, inside the transaction. */
  private batch(file: string, final: boolean, bytes: number): BatchOutcome {
    let fd: number;
    try {
      fd = openSync(join(this.dir, file), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NOTHING;
      throw error;
    }
    try {
      const offset = (this.getOffset.get(file) as number | undefined) ?? 0;
      const size = fstatSync(fd).size;
      if (size <= offset) return NOTHING;
      let want = Math.min(bytes, size - offset);
      let buffer = Buffer.allocUnsafe(want);
      let read = readSync(fd, buffer, 0, want, offset);
      let end = buffer.lastIndexOf(10, read - 1);
      // A line longer than a batch: read on until its newline (or the end of the file).
      while (end < 0 && offset + read < size) {
        want = Math.min(want * 2, size - offset);
        buffer = Buffer.allocUnsafe(want);
        read = readSync(fd, buffer, 0, want, offset);
        end = buffer.lastIndexOf(10, read - 1);
      }
      let consumed = end + 1;
      const records = this.parse(file, buffer.subarray(0, consumed), offset);
      if (final && offset + consumed < size && offset + read === size) {
        process.emitWarning(
          `mcprt: history journal ${join(this.dir, file)}: a torn last record at byte ${offset + consumed} (its writer was killed while writing it) is skipped`,
        );
        consumed = read;
      }
      this.rows.apply(records);
      if (consumed > 0) this.setOffset.run(file, offset + consumed);
      return { consumed, remaining: size - offset - consumed };
    } finally {
      closeSync(fd);
    }
  }

  private parse(file: string, chunk: Buffer, base: number): JournalRecord[] {
    const records: JournalRecord[] = [];
    const text = chunk.toString('utf8');
    let at = 0;
    while (at < text.length) {
      const nl = text.indexOf('\n', at);
      const line = text.slice(at, nl);
      if (line.trim() !== '') {
        try {
          records.push(parseJournalLine(line));
        } catch (error) {
          const byte = base + Buffer.byteLength(text.slice(0, at));
          process.emitWarning(
            `mcprt: history journal ${join(this.dir, file)}: the line at byte ${byte} is skipped: ${(error as Error).message}`,
          );
        }
      }
      at = nl + 1;
    }
    return records;
  }
}
