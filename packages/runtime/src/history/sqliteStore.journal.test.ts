// The history store's journal (ADR 0017): records are durable in the journal by the time a call is
// announced or reported (start records by the end of the event-loop turn, finish records before
// any of their promises resolves), redacted before they touch the disk, and seen at once by any
// store's `list` — another store on the same file reads them from the disk, as another process
// would. Idle ingestion, rotation, close, process exit and crash recovery after `kill -9` move
// them into SQLite exactly once; broken lines are skipped with a warning naming file and byte.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { HOST_TAG } from './journalFiles.js';
import { JOURNAL_TIMING, SqliteHistoryStore } from './sqliteStore.js';

const newFile = () => join(mkdtempSync(join(tmpdir(), 'mcprt-history-journal-')), 'history.sqlite');
const open = (file = newFile()) =>
  new SqliteHistoryStore(file, { redactKeys: ['password'], maxResultBytes: 1000 });
const start = (s: SqliteHistoryStore, id: string, extra: Record<string, unknown> = {}) =>
  s.started({
    id,
    threadId: 't',
    server: 'srv',
    environmentId: null,
    tool: 'echo',
    arguments: { password: 'pw-secret-1', n: id, ...extra },
    startedAt: 1,
  });
const done = { status: 'completed' as const, result: { ok: true }, error: null, durationMs: 2 };
/** What another store (another process) lists: read from the journal files on disk. */
const durable = (file: string) => {
  const other = open(file);
  try {
    return other.list({ limit: 500 }).data.map((r) => [r.id, r.status]);
  } finally {
    other.close();
  }
};
/** Rows already in SQLite (without ingesting anything). */
const sqliteRows = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT id, status, arguments FROM tool_calls ORDER BY seq').all();
  } finally {
    db.close();
  }
};
const journalFiles = (file: string) => {
  try {
    return readdirSync(join(file, '..', 'history.journal'));
  } catch {
    return [];
  }
};
const nextTurn = () => new Promise((r) => setImmediate(r));
const dist = fileURLToPath(new URL('../../dist/history/sqliteStore.js', import.meta.url));
const childScript = (file: string, body: string) => `
  const { SqliteHistoryStore } = await import(${JSON.stringify(dist)});
  const s = new SqliteHistoryStore(${JSON.stringify(file)}, { redactKeys: [], maxResultBytes: 100 });
  const start = (id) => s.started({ id, threadId: 't', server: 's', environmentId: null, tool: 't', arguments: { id }, startedAt: 1 });
  ${body}`;

const timing = { ...JOURNAL_TIMING };
afterEach(() => {
  Object.assign(JOURNAL_TIMING, timing);
  vi.restoreAllMocks();
});

describe('SqliteHistoryStore journal', () => {
  it('has start records on disk, redacted, by the end of the turn, and not yet in SQLite', async () => {
    const s = open();
    start(s, 'a');
    start(s, 'b');
    expect(durable(s.file)).toEqual([]);
    await nextTurn();
    expect(durable(s.file)).toEqual([
      ['b', 'inProgress'],
      ['a', 'inProgress'],
    ]);
    const files = journalFiles(s.file);
    expect(files).toHaveLength(1);
    const text = readFileSync(join(s.journalDir, files[0]!), 'utf8');
    expect(text).toContain('"password":"[REDACTED]"');
    expect(text).not.toContain('pw-secret-1');
    expect(statSync(join(s.journalDir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(s.journalDir).mode & 0o777).toBe(0o700);
    s.close();
  });

  it('writes the finish records of one tick before any of them resolves, start records first', async () => {
    const s = open();
    const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
    for (const id of ids) start(s, id); // not yet written: the finishes write them first
    const seenAtFirstResolve: string[][] = [];
    const all = ids.map((id) => s.finishedBatched(id, done));
    void all[0]!.then(() => seenAtFirstResolve.push(durable(s.file).map((r) => r[1]!)));
    await Promise.all(all);
    expect(seenAtFirstResolve).toEqual([ids.map(() => 'completed')]);
    expect(s.list({ limit: 100 }).data.map((r) => r.id)).toEqual([...ids].reverse());
    s.close();
  });

  it('writes a startedBatched record within START_WRITE_MS, or with the next write, before resolving', async () => {
    Object.assign(JOURNAL_TIMING, { START_WRITE_MS: 200 });
    const s = open();
    const record = {
      id: 'sb',
      threadId: 't',
      server: 'srv',
      environmentId: null,
      tool: 'echo',
      arguments: { password: 'pw-secret-2' },
      startedAt: 1,
    };
    const seenAtResolve: string[][] = [];
    const written = s.startedBatched(record).then(() => {
      seenAtResolve.push(durable(s.file).map((r) => r[1]!));
    });
    await nextTurn();
    expect(durable(s.file)).toEqual([]); // still waiting for a write to share
    await written;
    expect(seenAtResolve).toEqual([['inProgress']]);
    // A start followed by its finish: both lines in one write, both resolved after it.
    const order: string[] = [];
    const started = s.startedBatched({ ...record, id: 'sc' }).then(() => order.push('start'));
    const finished = s.finishedBatched('sc', done).then(() => order.push('finish'));
    await Promise.all([started, finished]);
    expect(order).toEqual(['start', 'finish']);
    expect(durable(s.file)).toEqual([
      ['sc', 'completed'],
      ['sb', 'inProgress'],
    ]);
    const text = readFileSync(join(s.journalDir, journalFiles(s.file)[0]!), 'utf8');
    expect(text).not.toContain('pw-secret-2');
    s.close();
  });

  it('ingests into SQLite when idle, once, and rotates a large journal', async () => {
    Object.assign(JOURNAL_TIMING, { IDLE_MS: 5, ROTATE_BYTES: 2000 });
    const s = open();
    for (let i = 0; i < 30; i++) {
      start(s, `i${i}`);
      await s.finishedBatched(`i${i}`, done);
    }
    expect(sqliteRows(s.file)).toHaveLength(0); // still only in the journal
    const before = journalFiles(s.file);
    await vi.waitFor(() => expect(sqliteRows(s.file)).toHaveLength(30), { timeout: 5000 });
    expect(new Set(sqliteRows(s.file).map((r) => (r as { status: string }).status))).toEqual(
      new Set(['completed']),
    );
    // Caught up past ROTATE_BYTES: the file was closed and deleted; the next record opens a new one.
    await vi.waitFor(() => expect(journalFiles(s.file)).toEqual([]), { timeout: 5000 });
    start(s, 'after');
    await nextTurn();
    expect(journalFiles(s.file)).toHaveLength(1);
    expect(journalFiles(s.file)).not.toEqual(before);
    expect(s.list({ limit: 100 }).data).toHaveLength(31);
    s.close();
    expect(journalFiles(s.file)).toEqual([]);
    expect(sqliteRows(s.file)).toHaveLength(31);
  });

  it('a record that cannot be stored costs no other record, and is a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const s = open();
    start(s, 'x');
    start(s, 'x'); // duplicate id: the UNIQUE constraint rejects the second
    start(s, 'y');
    await s.finishedBatched('y', done);
    expect(s.list().data.map((r) => [r.id, r.status])).toEqual([
      ['y', 'completed'],
      ['x', 'inProgress'],
    ]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('mcprt: could not record tool call in history: UNIQUE constraint'),
    );
    s.close();
  });

  it('list and close write pending records first; close ingests and deletes the journal', async () => {
    const s = open();
    start(s, 'p');
    expect(s.list().data.map((r) => [r.id, r.status])).toEqual([['p', 'inProgress']]);
    start(s, 'q');
    const finished = s.finishedBatched('p', done);
    s.close();
    await finished;
    expect(journalFiles(s.file)).toEqual([]);
    expect(sqliteRows(s.file).map((r) => Object.values(r as object).slice(0, 2))).toEqual([
      ['p', 'completed'],
      ['q', 'inProgress'],
    ]);
  });

  it('process exit writes and ingests records still pending', () => {
    const file = newFile();
    const script = childScript(
      file,
      `start('e1'); start('e2');
      void s.finishedBatched('e1', { status: 'failed', result: null, error: 'boom', durationMs: 1 });
      process.exit(0);`,
    );
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(journalFiles(file)).toEqual([]);
    expect(sqliteRows(file).map((r) => Object.values(r as object).slice(0, 2))).toEqual([
      ['e1', 'failed'],
      ['e2', 'inProgress'],
    ]);
  });

  it('another process lists a live process’s records at once; after kill -9 the next store replays and deletes its journal', async () => {
    const file = newFile();
    const script = childScript(
      file,
      `for (let i = 0; i < 5; i++) { start('k' + i); await s.finishedBatched('k' + i, { status: 'completed', result: { i }, error: null, durationMs: 1 }); }
      start('running');
      await new Promise((r) => setImmediate(r));
      process.stdout.write('reported\\n');
      setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const expected = [
        ['running', 'inProgress'],
        ...[4, 3, 2, 1, 0].map((i) => [`k${i}`, 'completed']),
      ];
      expect(durable(file)).toEqual(expected); // the owner is alive and has ingested nothing
      expect(journalFiles(file)).toHaveLength(1); // a live owner's journal is kept
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      appendFileSync(
        join(file, '..', 'history.journal', journalFiles(file)[0]!),
        '{"k":"s","id":"torn',
      ); // killed inside a write
      const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      const next = open(file); // recovery: the owner is dead
      expect(journalFiles(file)).toEqual([]);
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/history journal .*\.jsonl: a torn last record at byte \d+/),
      );
      expect(next.list({ limit: 100 }).data.map((r) => [r.id, r.status])).toEqual(expected);
      next.close();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('skips a line that is not a record, naming the file and byte, and stores the others', () => {
    const file = newFile();
    const s = open(file);
    start(s, 'ok1');
    s.flush();
    const [name] = journalFiles(file);
    const path = join(s.journalDir, name!);
    const size = statSync(path).size;
    appendFileSync(path, 'not json\n{"k":"f","id":"ok1","status":"weird"}\n');
    start(s, 'ok2');
    s.flush();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(s.list().data.map((r) => r.id)).toEqual(['ok2', 'ok1']);
    expect(warn).toHaveBeenCalledWith(
      `mcprt: history journal ${path}: the line at byte ${size} is skipped: not JSON (Unexpected token 'o', "not json" is not valid JSON)`,
    );
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(
        `the line at byte ${size + 9} is skipped: finish record without id or with an unknown status`,
      ),
    );
    s.close();
  });

  it("ingests another host's journal but never deletes it", () => {
    const file = newFile();
    const s = open(file);
    const foreignHost = HOST_TAG === '00000000' ? '11111111' : '00000000';
    const foreign = join(s.journalDir, `${foreignHost}-1-abcdef01-000001.jsonl`);
    mkdirSync(s.journalDir, { mode: 0o700 });
    writeFileSync(
      foreign,
      '{"k":"s","id":"far","thread":"t","server":"s","env":null,"tool":"t","at":5,"args":null}\n',
    );
    expect(s.list().data.map((r) => [r.id, r.status])).toEqual([['far', 'inProgress']]);
    s.close();
    const again = open(file);
    expect(again.list().data.map((r) => r.id)).toEqual(['far']); // stored once
    again.close();
    expect(journalFiles(file)).toEqual([`${foreignHost}-1-abcdef01-000001.jsonl`]);
  });
});
