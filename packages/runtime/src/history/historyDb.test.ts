// The history database made by an mcprt from before views (no `view` column), or from before
// callers (no `caller_subject`, `caller_client_id`), is migrated in place when a store opens it:
// its rows and an old process's journal lines read back as made through no view, by no caller,
// new calls keep theirs, the filters tell them apart, and a process still running the old code
// can go on writing to the migrated table.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { migrateHistoryDb, openHistoryDb } from './historyDb.js';
import { HOST_TAG } from './journalFiles.js';
import { SqliteHistoryStore } from './sqliteStore.js';

/** The columns added since the first schema, in order (each one last when added). */
const ADDED = ['view', 'caller_subject', 'caller_client_id', 'task_id', 'task_wire'];

/** The schema `history.sqlite` had before calls recorded their view (historyDb.ts at HEAD). */
const OLD_SCHEMA = `
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
CREATE TABLE IF NOT EXISTS history_journals (
  file TEXT PRIMARY KEY,
  offset INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** The insert the old code makes (its columns named, so it keeps working after the migration). */
const OLD_INSERT = `INSERT INTO tool_calls (id, thread_id, server, environment_id, tool, arguments, status,
  result, result_truncated, error, started_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const newFile = () => join(mkdtempSync(join(tmpdir(), 'mcprt-history-db-')), 'history.sqlite');

/** An old-schema database holding `ids`, completed in environment `alpha`. */
function oldDatabase(file: string, ids: readonly string[]): void {
  const db = new Database(file);
  db.exec(OLD_SCHEMA);
  const insert = db.prepare(OLD_INSERT);
  ids.forEach((id, i) =>
    insert.run(
      id,
      't-old',
      'srv',
      'alpha',
      'echo',
      '{"n":1}',
      'completed',
      '{}',
      0,
      null,
      10 + i,
      3,
    ),
  );
  db.close();
}

const columns = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('PRAGMA table_info(tool_calls)').all() as { name: string }[]).map(
      (c) => c.name,
    );
  } finally {
    db.close();
  }
};

const open = (file: string) =>
  new SqliteHistoryStore(file, { redactKeys: ['password'], maxResultBytes: 1000 });

describe('history database migration', () => {
  it('adds the view column to an old database on open; old rows read as no view', () => {
    const file = newFile();
    oldDatabase(file, ['old-1', 'old-2']);
    expect(columns(file)).not.toContain('view');

    const s = open(file);
    expect(columns(file)).toContain('view');
    s.started({
      id: 'new-1',
      threadId: 't-new',
      server: 'srv',
      environmentId: null,
      tool: 'echo',
      arguments: { password: 'pw' },
      startedAt: 20,
      view: 'triage',
    });
    s.finished('new-1', { status: 'completed', result: { ok: 1 }, error: null, durationMs: 1 });
    // A start record without a view (a sink writer that does not set it) is recorded as none.
    s.started({
      id: 'new-2',
      threadId: 't-new',
      server: 'srv',
      environmentId: null,
      tool: 'echo',
      arguments: null,
      startedAt: 21,
    });
    s.finished('new-2', {
      status: 'refused',
      result: null,
      error: 'not in view',
      durationMs: 0,
    });

    const all = s.list().data;
    expect(all.map((r) => [r.id, r.view, r.status])).toEqual([
      ['new-2', null, 'refused'],
      ['new-1', 'triage', 'completed'],
      ['old-2', null, 'completed'],
      ['old-1', null, 'completed'],
    ]);
    expect(all.find((r) => r.id === 'old-1')).toMatchObject({
      threadId: 't-old',
      environmentId: 'alpha',
      arguments: { n: 1 },
      durationMs: 3,
    });
    expect(s.list({ view: 'triage' }).data.map((r) => r.id)).toEqual(['new-1']);
    expect(s.list({ view: null }).data.map((r) => r.id)).toEqual(['new-2', 'old-2', 'old-1']);
    expect(s.list({ view: 'other' }).data).toEqual([]);
    s.close();

    // Opened again: nothing to migrate, nothing lost.
    const again = open(file);
    expect(again.list().data).toHaveLength(4);
    again.close();
  });

  it('replays an old journal line (no view) into the migrated database as no view', () => {
    const file = newFile();
    oldDatabase(file, ['old-1']);
    // A journal an older mcprt on another host left (ingested by `list`, never deleted here).
    const dir = join(file, '..', 'history.journal');
    mkdirSync(dir, { mode: 0o700 });
    const foreignHost = HOST_TAG === '00000000' ? '11111111' : '00000000';
    writeFileSync(
      join(dir, `${foreignHost}-1-abcdef01-000001.jsonl`),
      '{"k":"s","id":"old-j","thread":"t","server":"s","env":null,"tool":"x","at":30,"args":{"a":1}}\n' +
        '{"k":"f","id":"old-j","status":"completed","ms":2,"truncated":false,"error":null,"result":null}\n',
    );
    const s = open(file);
    expect(s.list().data.map((r) => [r.id, r.view, r.arguments])).toEqual([
      ['old-j', null, { a: 1 }],
      ['old-1', null, { n: 1 }],
    ]);
    s.close();
  });

  it('lets an old process keep inserting into the migrated table', () => {
    const file = newFile();
    oldDatabase(file, []);
    const s = open(file);
    const old = new Database(file);
    old
      .prepare(OLD_INSERT)
      .run('by-old-code', 't', 'srv', null, 'echo', null, 'failed', null, 0, 'boom', 5, 1);
    old.close();
    expect(s.list().data).toMatchObject([{ id: 'by-old-code', view: null, error: 'boom' }]);
    s.close();
  });

  it('migrates once: a second migration, and a fresh database, are left as they are', () => {
    const file = newFile();
    oldDatabase(file, ['old-1']);
    const a = openHistoryDb(file);
    const b = new Database(file);
    migrateHistoryDb(b); // a second process opening the same home: no duplicate column
    migrateHistoryDb(a);
    for (const column of ['view', 'caller_subject', 'caller_client_id', 'task_id', 'task_wire']) {
      expect(columns(file).filter((c) => c === column)).toHaveLength(1);
    }
    a.close();
    b.close();

    const fresh = newFile();
    openHistoryDb(fresh).close();
    expect(columns(fresh).slice(-5)).toEqual(ADDED);
  });
});

/** The schema of a database made after views and before callers were recorded. */
const VIEW_SCHEMA = OLD_SCHEMA.replace(
  'duration_ms INTEGER\n',
  'duration_ms INTEGER,\n  view TEXT\n',
);

/** The insert of that code (its columns named). */
const VIEW_INSERT = `INSERT INTO tool_calls (id, thread_id, server, environment_id, tool, arguments, status,
  result, result_truncated, error, started_at, duration_ms, view)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

function viewDatabase(file: string, ids: readonly string[]): void {
  const db = new Database(file);
  db.exec(VIEW_SCHEMA);
  const insert = db.prepare(VIEW_INSERT);
  ids.forEach((id, i) =>
    insert.run(id, 't-old', 'srv', null, 'echo', null, 'completed', null, 0, null, 10 + i, 3, 'v'),
  );
  db.close();
}

describe('history database migration: callers', () => {
  it('adds the caller columns to a database from before callers; old rows read as no caller', () => {
    const file = newFile();
    viewDatabase(file, ['old-1']);
    expect(columns(file)).toContain('view');
    expect(columns(file)).not.toContain('caller_subject');

    const s = open(file);
    expect(columns(file).slice(-5)).toEqual(ADDED);
    s.started({
      id: 'new-1',
      threadId: 't-new',
      server: 'srv',
      environmentId: null,
      tool: 'echo',
      arguments: null,
      startedAt: 20,
      view: 'v',
      caller: { subject: 'alice', clientId: 'web' },
    });
    s.finished('new-1', { status: 'completed', result: null, error: null, durationMs: 1 });
    expect(s.list().data.map((r) => [r.id, r.view, r.caller])).toEqual([
      ['new-1', 'v', { subject: 'alice', clientId: 'web' }],
      ['old-1', 'v', null],
    ]);
    expect(s.list({ caller: 'alice' }).data.map((r) => r.id)).toEqual(['new-1']);
    expect(s.list({ caller: 'web' }).data.map((r) => r.id)).toEqual(['new-1']);

    // A process still running the code from before callers goes on inserting: no caller.
    const old = new Database(file);
    old
      .prepare(VIEW_INSERT)
      .run('by-old-code', 't', 'srv', null, 'echo', null, 'failed', null, 0, 'boom', 30, 1, null);
    old.close();
    expect(s.list().data[0]).toMatchObject({ id: 'by-old-code', view: null, caller: null });
    s.close();

    // Opened again: nothing to migrate, nothing lost.
    const again = open(file);
    expect(again.list({ caller: 'alice' }).data).toHaveLength(1);
    expect(again.list().data).toHaveLength(3);
    again.close();
  });

  it('migrates a database from before views straight to this schema', () => {
    const file = newFile();
    oldDatabase(file, ['old-1']);
    const s = open(file);
    expect(columns(file).slice(-5)).toEqual(ADDED);
    expect(s.list().data).toMatchObject([{ id: 'old-1', view: null, caller: null }]);
    s.close();
  });

  it('replays journal lines with and without a caller into a migrated database', () => {
    const file = newFile();
    viewDatabase(file, []);
    const dir = join(file, '..', 'history.journal');
    mkdirSync(dir, { mode: 0o700 });
    const foreignHost = HOST_TAG === '00000000' ? '11111111' : '00000000';
    writeFileSync(
      join(dir, `${foreignHost}-1-abcdef01-000001.jsonl`),
      '{"k":"s","id":"before","thread":"t","server":"s","env":null,"tool":"x","at":30,"view":null,"args":{"a":1}}\n' +
        '{"k":"f","id":"before","status":"completed","ms":2,"truncated":false,"error":null,"result":null}\n' +
        '{"k":"s","id":"after","thread":"t","server":"s","env":null,"tool":"x","at":31,"view":null,"sub":"bob","client":null,"args":{"a":2}}\n' +
        '{"k":"f","id":"after","status":"refused","ms":0,"truncated":false,"error":"no policy","result":null}\n',
    );
    const s = open(file);
    expect(s.list().data.map((r) => [r.id, r.caller, r.arguments])).toEqual([
      ['after', { subject: 'bob', clientId: null }, { a: 2 }],
      ['before', null, { a: 1 }],
    ]);
    expect(s.list({ caller: 'bob', status: 'refused' }).data.map((r) => r.id)).toEqual(['after']);
    s.close();
  });
});
