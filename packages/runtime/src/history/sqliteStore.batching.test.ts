// The history store's write scheduling (docs/performance.md): start records are written by the end
// of the event-loop turn and batched; finish records of one tick share a transaction and are on
// disk before any of their promises resolves; one bad record costs no other; process exit writes
// whatever is still pending. Read back through a second connection, as another process would.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SqliteHistoryStore } from './sqliteStore.js';

const open = () => {
  const file = join(mkdtempSync(join(tmpdir(), 'mcprt-history-batch-')), 'history.sqlite');
  return new SqliteHistoryStore(file, { redactKeys: ['password'], maxResultBytes: 1000 });
};
const start = (s: SqliteHistoryStore, id: string) =>
  s.started({
    id,
    threadId: 't',
    server: 'srv',
    environmentId: null,
    tool: 'echo',
    arguments: { password: 'pw', n: id },
    startedAt: 1,
  });
const done = { status: 'completed' as const, result: { ok: true }, error: null, durationMs: 2 };
/** Rows as another connection (another process) sees them. */
const rowsOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT id, status, arguments FROM tool_calls ORDER BY seq').all() as {
      id: string;
      status: string;
      arguments: string;
    }[];
  } finally {
    db.close();
  }
};
const nextTurn = () => new Promise((r) => setImmediate(r));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SqliteHistoryStore write scheduling', () => {
  it('writes start records (redacted, inProgress) by the end of the event-loop turn', async () => {
    const s = open();
    start(s, 'a');
    start(s, 'b');
    await nextTurn();
    expect(rowsOf(s.file)).toEqual([
      { id: 'a', status: 'inProgress', arguments: '{"password":"[REDACTED]","n":"a"}' },
      { id: 'b', status: 'inProgress', arguments: '{"password":"[REDACTED]","n":"b"}' },
    ]);
    s.close();
  });

  it('writes finish records of one tick before any of them resolves, start records first', async () => {
    const s = open();
    const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
    for (const id of ids) start(s, id); // not yet written: the finishes must write them first
    const seenAtFirstResolve: string[][] = [];
    const all = ids.map((id) => s.finishedBatched(id, done));
    void all[0]!.then(() => seenAtFirstResolve.push(rowsOf(s.file).map((r) => r.status)));
    await Promise.all(all);
    expect(seenAtFirstResolve).toEqual([ids.map(() => 'completed')]);
    expect(s.list({ limit: 100 }).data.map((r) => r.id)).toEqual([...ids].reverse());
    s.close();
  });

  it('a record that cannot be written costs no other record, and is a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const s = open();
    start(s, 'x');
    start(s, 'x'); // duplicate id in the same batch: the UNIQUE constraint rejects it
    start(s, 'y');
    await nextTurn();
    expect(rowsOf(s.file).map((r) => r.id)).toEqual(['x', 'y']);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('mcprt: could not record tool call in history: UNIQUE constraint'),
    );
    await s.finishedBatched('y', done);
    expect(rowsOf(s.file).find((r) => r.id === 'y')!.status).toBe('completed');
    s.close();
  });

  it('list and close write pending records first', async () => {
    const s = open();
    start(s, 'p');
    expect(s.list().data.map((r) => [r.id, r.status])).toEqual([['p', 'inProgress']]);
    start(s, 'q');
    const finished = s.finishedBatched('p', done);
    s.close();
    await finished;
    expect(rowsOf(s.file).map((r) => [r.id, r.status])).toEqual([
      ['p', 'completed'],
      ['q', 'inProgress'],
    ]);
  });

  it('process exit writes records still pending', () => {
    const dist = fileURLToPath(new URL('../../dist/history/sqliteStore.js', import.meta.url));
    const file = join(mkdtempSync(join(tmpdir(), 'mcprt-history-exit-')), 'history.sqlite');
    const script = `
      const { SqliteHistoryStore } = await import(${JSON.stringify(dist)});
      const s = new SqliteHistoryStore(${JSON.stringify(file)}, { redactKeys: [], maxResultBytes: 100 });
      s.started({ id: 'e1', threadId: 't', server: 's', environmentId: null, tool: 't', arguments: null, startedAt: 1 });
      s.started({ id: 'e2', threadId: 't', server: 's', environmentId: null, tool: 't', arguments: null, startedAt: 1 });
      void s.finishedBatched('e1', { status: 'failed', result: null, error: 'boom', durationMs: 1 });
      process.exit(0);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(rowsOf(file).map((r) => [r.id, r.status])).toEqual([
      ['e1', 'failed'],
      ['e2', 'inProgress'],
    ]);
  });
});
