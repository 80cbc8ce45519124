/**
 * What the tool-call history of a home holds on disk (ADR 0017): the SQLite database, its WAL and
 * the journal files of running (or killed) processes. `recoveredHistory` opens a store on the
 * home as the next mcprt process would — which replays the journals of processes that died — and
 * returns the database's rows as stored.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { SqliteHistoryStore } from '@mcprt/runtime';
import Database from 'better-sqlite3';

export const journalDir = (home: string) => join(home, 'history.journal');

/** Journal files left in the home (a live or killed process's). */
export function journalFiles(home: string): string[] {
  return existsSync(journalDir(home)) ? readdirSync(journalDir(home)) : [];
}

/** Every byte of history on disk: database, WAL and journal files (latin1 text). */
export function historyBytes(home: string): string {
  const files = [
    join(home, 'history.sqlite'),
    join(home, 'history.sqlite-wal'),
    ...journalFiles(home).map((f) => join(journalDir(home), f)),
  ];
  return files
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}

/** Rows of `tool_calls` (`columns`, in call order) after a new store recovered the home. */
export function recoveredHistory<T>(home: string, columns: string): T[] {
  new SqliteHistoryStore(join(home, 'history.sqlite'), {
    redactKeys: [],
    maxResultBytes: 65536,
  }).close();
  const db = new Database(join(home, 'history.sqlite'), { readonly: true });
  try {
    return db.prepare(`SELECT ${columns} FROM tool_calls ORDER BY seq`).all() as T[];
  } finally {
    db.close();
  }
}
