/**
 * The durable tool-call history of a home (ADR 0017): records go to this store's append-only
 * journal on the call path (`history.journal/`, one `write` per flush, no fsync — it survives
 * `kill -9`, as SQLite's WAL with `synchronous = NORMAL` does), and from there into
 * `history.sqlite` in batches when the process is idle. Every session of every process on the
 * home shares the database; `list` first ingests every journal of the home (its own and other
 * processes'), so it sees every recorded call at once. Opening a store replays the journals of
 * processes that died (crash recovery); `close` and process exit ingest and delete this store's.
 *
 * Call-path scheduling (ADR 0009, ADR 0022): `startedBatched` start records wait for the store's
 * next write — a quick call's own finish record — or at most `START_WRITE_MS`, while the request
 * is already on its way to the server (`started` ones: the end of the event-loop turn);
 * `finishedBatched` writes the finish records of calls completing in the same tick in one write,
 * before any of them is reported. Arguments, results and error texts
 * are redacted and capped (history/redact.ts) before they are written anywhere.
 */

import type Database from 'better-sqlite3';

import { HistoryRows, openHistoryDb, warnOnFailure } from './historyDb.js';
import { queryHistory } from './historyQuery.js';
import { BATCH_BYTES, JournalIngester } from './ingest.js';
import { HistoryJournal } from './journal.js';
import { journalDirFor } from './journalFiles.js';
import { finishLine, startLine, taskLine } from './journalLines.js';
import { capResult, Redactor, warmUpRedaction } from './redact.js';
import type { HistoryCaller, HistoryPage, HistoryQuery, HistorySink } from './types.js';

export { HistoryCursorError } from './historyQuery.js';

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

/** Idle ingestion: look every IDLE_MS; ingest once a look finds no new write, or the backlog is
 * older than MAX_DELAY_MS or larger than MAX_BACKLOG bytes. Rotate past ROTATE_BYTES. */
export const JOURNAL_TIMING = {
  /** `startedBatched`: the longest a start record waits for another write to share (ADR 0022). */
  START_WRITE_MS: 1,
  IDLE_MS: 50,
  MAX_DELAY_MS: 2000,
  MAX_BACKLOG: 4 * 1024 * 1024,
  ROTATE_BYTES: 1024 * 1024,
  RETRY_MS: 1000,
  /** Journal bytes per idle-time batch (one transaction; `list`/`close` take larger ones). */
  BATCH_BYTES: BATCH_BYTES,
};

type StartedRecord = Parameters<HistorySink['started']>[0];
type Outcome = Parameters<HistorySink['finished']>[1];

/** A record built (never written) before the first call, see `preparing`. */
const WARM_UP_RECORD: StartedRecord = {
  id: 'warm-up',
  threadId: 't',
  server: 's',
  environmentId: null,
  tool: 't',
  arguments: { message: 'm' },
  startedAt: 0,
  view: null,
  caller: null,
};
const WARM_UP_OUTCOME: Outcome = {
  status: 'completed',
  result: { content: [{ type: 'text', text: 'm' }] },
  error: null,
  durationMs: 0,
};

/** Open stores: on process exit their pending records are written and ingested. */
const open = new Set<SqliteHistoryStore>();
const RESOLVED = Promise.resolve();
let exitHookInstalled = false;

export class SqliteHistoryStore implements HistorySink {
  private readonly db: Database.Database;
  private readonly rows: HistoryRows;
  private readonly journal: HistoryJournal;
  private readonly ingester: JournalIngester;
  private readonly redactor: Redactor;
  /** Lines not yet written, in record order. */
  private lines: string[] = [];
  private waiters: (() => void)[] = [];
  private startWrite: NodeJS.Immediate | undefined;
  private finishWriteQueued = false;
  /** `startedBatched`'s timer: made once, re-armed (`refresh`) when a start record waits. */
  private startTimer: NodeJS.Timeout | undefined;
  private startTimerArmed = false;
  /** Idle ingestion state: the scheduled look or batch, writes since the last look, backlog. */
  private ingestion: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private writesSinceLook = 0;
  private backlog = 0;
  private backlogSince = 0;
  /** Creates the journal file soon after the store opens (`prepare`), not on the first call. */
  private preparing: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly options: HistoryStoreOptions,
  ) {
    this.redactor = new Redactor(options.redactKeys, {
      replaceDefaults: options.redactKeysReplace === true,
    });
    this.db = openHistoryDb(file);
    this.rows = new HistoryRows(this.db, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
    const dir = journalDirFor(file);
    this.journal = new HistoryJournal(dir);
    this.ingester = new JournalIngester(this.db, dir, this.rows);
    // Crash recovery: what processes that died on this home journalled but did not ingest.
    warnOnFailure(() => this.ingester.catchUpAll({ deadOnly: true }));
    // The journal file (mkdir, open, fchmod) is created, and the redaction rules compiled, in the
    // next turn, while the session's servers start, instead of by the first call (ADR 0024). A
    // failure here is not reported: the first append tries again and warns as it always did.
    this.preparing = setImmediate(() => {
      this.preparing = undefined;
      if (this.closed) return;
      try {
        warmUpRedaction();
        // Build (and drop) one record's lines: the first call then runs compiled code.
        this.startText(WARM_UP_RECORD);
        this.finishText(WARM_UP_RECORD.id, WARM_UP_OUTCOME);
        this.journal.prepare();
      } catch {
        // the first append retries and warns
      }
    }).unref();
    open.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const store of open) store.close();
      });
    }
  }

  /** The journal directory (`history.journal` beside the database). */
  get journalDir(): string {
    return this.journal.dir;
  }

  started(record: StartedRecord): void {
    this.lines.push(this.startText(record));
    this.startWrite ??= setImmediate(() => this.writeLines());
  }

  startedBatched(record: StartedRecord): Promise<void> {
    this.lines.push(this.startText(record));
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (this.startTimerArmed) return;
      this.startTimerArmed = true;
      if (this.startTimer === undefined) {
        this.startTimer = setTimeout(
          () => this.writeLines(),
          JOURNAL_TIMING.START_WRITE_MS,
        ).unref();
      } else this.startTimer.refresh();
    });
  }

  private startText(record: StartedRecord): string {
    const args = record.arguments;
    return startLine({
      id: record.id,
      threadId: record.threadId,
      server: record.server,
      environmentId: record.environmentId,
      tool: record.tool,
      arguments:
        args === undefined || args === null ? null : JSON.stringify(this.redactor.value(args)),
      startedAt: record.startedAt,
      view: record.view ?? null,
      caller: storedCaller(record.caller),
    });
  }

  taskCreated(
    id: string,
    task: { readonly id: string; readonly wire: 'core' | 'extension' },
  ): void {
    this.lines.push(taskLine({ id, taskId: task.id, wire: task.wire }));
    this.writeLines();
  }

  finished(id: string, outcome: Outcome): void {
    this.lines.push(this.finishText(id, outcome));
    this.writeLines();
  }

  finishedBatched(id: string, outcome: Outcome): Promise<void> {
    this.lines.push(this.finishText(id, outcome));
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (!this.finishWriteQueued) {
        this.finishWriteQueued = true;
        // A resolved promise's reaction, not `queueMicrotask` (which makes an AsyncResource
        // per call): the same microtask turn.
        void RESOLVED.then(this.writeQueued);
      }
    });
  }

  /** Write every pending record to the journal now. Never throws. */
  flush(): void {
    this.writeLines();
  }

  /** Newest first; every journalled record of the home included. */
  list(query: HistoryQuery = {}): HistoryPage {
    this.catchUp();
    return queryHistory(this.db, query);
  }

  /** Delete all but the newest `maxEntries` calls (journalled ones included). */
  prune(): void {
    this.catchUp();
    this.rows.prune();
  }

  close(): void {
    if (this.closed) return;
    this.writeLines();
    this.closed = true;
    open.delete(this);
    clearTimeout(this.startTimer);
    clearImmediate(this.preparing);
    this.cancelIngestion();
    // Ingest and delete this store's journal; if that fails, the next store opened on the home
    // replays it (its owner is then dead).
    warnOnFailure(() => {
      const file = this.journal.rotate();
      if (file === null) return;
      this.ingester.catchUp(file, true);
      this.ingester.forget(file);
    });
    this.db.close();
  }

  private finishText(id: string, outcome: Outcome): string {
    const stored = this.storedResult(outcome.result);
    return finishLine({
      id,
      status: outcome.status,
      result: stored.json,
      truncated: stored.truncated ? 1 : 0,
      error:
        outcome.error === null
          ? null
          : capText(this.redactor.text(outcome.error), this.options.maxResultBytes),
      durationMs: outcome.durationMs,
    });
  }

  private readonly writeQueued = (): void => this.writeLines();

  /** Append pending lines with one write, then release the callers waiting for them. */
  private writeLines(): void {
    if (this.startWrite !== undefined) clearImmediate(this.startWrite);
    this.startWrite = undefined;
    this.finishWriteQueued = false;
    // The start timer stays pending (it is re-armed, not remade): firing with nothing to write
    // is a no-op.
    this.startTimerArmed = false;
    const lines = this.lines;
    const waiters = this.waiters;
    this.lines = [];
    this.waiters = [];
    if (lines.length > 0) {
      const text = lines.length === 1 ? lines[0]! : lines.join('');
      if (this.closed) {
        process.emitWarning(
          `mcprt: could not record tool call in history: the history store is closed`,
        );
      } else {
        warnOnFailure(() => this.journal.append(text));
        this.noteWrite(text.length);
      }
    }
    for (const resolve of waiters) resolve();
  }

  /** Ingest the whole home's journals now (`list`); a failure leaves them for later. */
  private catchUp(): void {
    this.writeLines();
    warnOnFailure(() => {
      this.ingester.catchUpAll();
      this.backlog = 0;
    });
  }

  private noteWrite(bytes: number): void {
    this.backlog += bytes;
    this.writesSinceLook += 1;
    if (this.ingestion === undefined) {
      this.backlogSince = Date.now();
      this.lookLater(JOURNAL_TIMING.IDLE_MS);
    }
  }

  private lookLater(ms: number): void {
    this.ingestion = setTimeout(() => this.look(), ms).unref();
  }

  private cancelIngestion(): void {
    clearTimeout(this.ingestion as NodeJS.Timeout);
    clearImmediate(this.ingestion as NodeJS.Immediate);
    this.ingestion = undefined;
  }

  /** Ingest when idle (no write since the last look), or when the backlog is too old or big. */
  private look(): void {
    this.ingestion = undefined;
    if (this.backlog === 0 || this.closed) return;
    const busy = this.writesSinceLook > 0;
    this.writesSinceLook = 0;
    const overdue =
      Date.now() - this.backlogSince >= JOURNAL_TIMING.MAX_DELAY_MS ||
      this.backlog >= JOURNAL_TIMING.MAX_BACKLOG;
    if (busy && !overdue) this.lookLater(JOURNAL_TIMING.IDLE_MS);
    else this.ingestStep();
  }

  /** One batch (one transaction) of this store's journal; the next one after pending I/O. */
  private ingestStep(): void {
    this.ingestion = undefined;
    const file = this.journal.current;
    if (file === null || this.closed) {
      this.backlog = 0;
      return;
    }
    let remaining: number;
    let consumed: number;
    try {
      ({ remaining, consumed } = this.ingester.ingestBatch(
        file,
        false,
        JOURNAL_TIMING.BATCH_BYTES,
      ));
    } catch (error) {
      // The records are safe in the journal; try again later (e.g. another process holds the
      // database's write lock).
      process.emitWarning(
        `mcprt: could not ingest the history journal: ${(error as Error).message}`,
      );
      this.lookLater(JOURNAL_TIMING.RETRY_MS);
      return;
    }
    this.backlog = remaining;
    if (remaining > 0 && consumed > 0) {
      this.ingestion = setImmediate(() => this.ingestStep());
      return;
    }
    if (remaining === 0 && this.journal.size >= JOURNAL_TIMING.ROTATE_BYTES) {
      const rotated = this.journal.rotate();
      if (rotated !== null) warnOnFailure(() => this.ingester.forget(rotated));
    }
    this.writesSinceLook = 0;
    this.backlogSince = Date.now();
  }

  /**
   * The result as stored: redacted whole, then capped (issue #33, F2). Redacting only the cut
   * preview would store the part of a secret before the cut in clear (a key block whose END line
   * is past the cut, half a token): the patterns no longer match it. The preview is scanned once
   * more as text, so that a cut can never leave a secret-looking remnant.
   */
  private storedResult(result: unknown): { json: string | null; truncated: boolean } {
    const max = this.options.maxResultBytes;
    const capped = capResult(this.redactor.value(result), max);
    if (!capped.truncated) return capped;
    const marker = JSON.parse(capped.json!) as { preview: string };
    const preview = this.redactor.text(marker.preview);
    return preview === marker.preview
      ? capped
      : { json: JSON.stringify({ ...marker, preview }), truncated: true };
  }
}

/** A caller as recorded: none when it has neither a subject nor a client id. */
function storedCaller(caller: HistoryCaller | null | undefined): HistoryCaller | null {
  if (caller === undefined || caller === null) return null;
  return caller.subject === null && caller.clientId === null ? null : caller;
}

function capText(text: string, maxBytes: number): string {
  return Buffer.byteLength(text) <= maxBytes
    ? text
    : `${Buffer.from(text).subarray(0, maxBytes).toString('utf8')}… [truncated]`;
}
