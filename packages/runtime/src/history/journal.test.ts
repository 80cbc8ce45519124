// The journal file itself (ADR 0017, ADR 0024): a store creates its file soon after it opens (not
// on the first call), 0600 in a 0700 directory, and deletes it on close; a store closed in the
// turn it opened creates nothing. A write cut short by the file system (a file size limit, as a
// full disk would) throws, counts the bytes that did reach the file, and the next record first
// ends the fragment with a newline so that it cannot spoil that record.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { SqliteHistoryStore } from './sqliteStore.js';

const newFile = () => join(mkdtempSync(join(tmpdir(), 'mcprt-journal-')), 'history.sqlite');
const open = (file: string) =>
  new SqliteHistoryStore(file, { redactKeys: [], maxResultBytes: 1000 });
const journalFiles = (file: string) => {
  try {
    return readdirSync(join(file, '..', 'history.journal'));
  } catch {
    return [];
  }
};
const nextTurn = () => new Promise((r) => setImmediate(r));

describe('HistoryJournal', () => {
  it('is created soon after the store opens, before any record, and deleted on close', async () => {
    const file = newFile();
    const s = open(file);
    expect(journalFiles(file)).toEqual([]); // not in the constructor
    await nextTurn();
    const [name, ...more] = journalFiles(file);
    expect(more).toEqual([]);
    const path = join(s.journalDir, name!);
    expect(statSync(path).size).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(s.journalDir).mode & 0o777).toBe(0o700);
    s.started({
      id: 'a',
      threadId: 't',
      server: 's',
      environmentId: null,
      tool: 'echo',
      arguments: { n: 1 },
      startedAt: 1,
    });
    s.flush();
    expect(journalFiles(file)).toEqual([name]); // the first record went to the prepared file
    expect(readFileSync(path, 'utf8')).toContain('"id":"a"');
    s.close();
    expect(journalFiles(file)).toEqual([]);
    const again = open(file);
    expect(again.list().data.map((r) => [r.id, r.status])).toEqual([['a', 'inProgress']]);
    again.close();
  });

  it('creates nothing for a store closed in the turn it opened', async () => {
    const file = newFile();
    open(file).close();
    await nextTurn();
    expect(journalFiles(file)).toEqual([]);
  });

  it('a write cut short throws, counts what was written, and the next record starts a new line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprt-journal-'));
    const dist = fileURLToPath(new URL('../../dist/history/journal.js', import.meta.url));
    // `ulimit -f 2`: files of at most 2048 bytes; writing past it is cut short, then EFBIG
    // (Node ignores SIGXFSZ).
    const script = `
      import { truncateSync } from 'node:fs';
      import { join } from 'node:path';
      const { HistoryJournal } = await import(${JSON.stringify(dist)});
      const j = new HistoryJournal(${JSON.stringify(dir)});
      const out = {};
      j.append('a'.repeat(1500) + '\\n');
      try { j.append('b'.repeat(1000) + '\\n'); } catch (e) { out.error = e.code; }
      out.size = j.size;
      truncateSync(join(${JSON.stringify(dir)}, j.current), 1800); // room again
      j.append('c\\n');
      out.file = j.current;
      console.log(JSON.stringify(out));`;
    const run = spawnSync(
      'bash',
      ['-c', 'ulimit -f 2 && exec "$0" --input-type=module -e "$1"', process.execPath, script],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { error: string; size: number; file: string };
    expect(out.error).toBe('EFBIG');
    expect(out.size).toBe(2048);
    expect(readFileSync(join(dir, out.file), 'utf8')).toBe(
      `${'a'.repeat(1500)}\n${'b'.repeat(299)}\nc\n`,
    );
  });
});
