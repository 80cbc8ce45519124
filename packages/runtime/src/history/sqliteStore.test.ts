import { statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HistoryCursorError, SqliteHistoryStore } from './sqliteStore.js';

function store(options: Partial<ConstructorParameters<typeof SqliteHistoryStore>[1]> = {}) {
  const file = join(mkdtempSync(join(tmpdir(), 'mcprt-history-')), 'history.sqlite');
  return new SqliteHistoryStore(file, {
    redactKeys: ['password'],
    maxResultBytes: 200,
    ...options,
  });
}

function record(s: SqliteHistoryStore, i: number, environmentId: string | null = null) {
  s.started({
    id: `c${i}`,
    threadId: 't',
    server: 'srv',
    environmentId,
    tool: 'echo',
    arguments: { i, password: 'pw' },
    startedAt: 1000 + i,
  });
  s.finished(`c${i}`, {
    status: i % 2 ? 'failed' : 'completed',
    result: { content: [{ type: 'text', text: `r${i}` }] },
    error: null,
    durationMs: i,
  });
}

describe('SqliteHistoryStore', () => {
  it('creates the file with mode 0600 and redacts arguments', () => {
    const s = store();
    record(s, 1);
    expect(statSync(s.file).mode & 0o777).toBe(0o600);
    expect(s.list().data[0]!.arguments).toEqual({ i: 1, password: '[REDACTED]' });
    s.close();
  });

  it('caps stored results with a truncation marker', () => {
    const s = store();
    s.started({
      id: 'big',
      threadId: 't',
      server: 'srv',
      environmentId: null,
      tool: 'echo',
      arguments: null,
      startedAt: 1,
    });
    s.finished('big', {
      status: 'completed',
      result: { text: 'y'.repeat(5000) },
      error: null,
      durationMs: 1,
    });
    const [row] = s.list().data;
    expect(row!.resultTruncated).toBe(true);
    expect(row!.result).toMatchObject({
      truncated: true,
      originalBytes: JSON.stringify({ text: 'y'.repeat(5000) }).length,
    });
    expect(JSON.stringify(row!.result).length).toBeLessThan(300);
    s.close();
  });

  it('pages newest first with a cursor and filters by environment and status', () => {
    const s = store();
    for (let i = 0; i < 7; i++) record(s, i, i < 4 ? 'alpha' : null);
    const first = s.list({ limit: 3 });
    expect(first.data.map((r) => r.id)).toEqual(['c6', 'c5', 'c4']);
    const second = s.list({ limit: 3, cursor: first.nextCursor! });
    expect(second.data.map((r) => r.id)).toEqual(['c3', 'c2', 'c1']);
    expect(s.list({ environmentId: 'alpha' }).data.map((r) => r.id)).toEqual([
      'c3',
      'c2',
      'c1',
      'c0',
    ]);
    expect(s.list({ environmentId: null }).data.map((r) => r.id)).toEqual(['c6', 'c5', 'c4']);
    expect(s.list({ status: 'failed', environmentId: 'alpha' }).data.map((r) => r.id)).toEqual([
      'c3',
      'c1',
    ]);
    expect(() => s.list({ cursor: 'nope' })).toThrow(HistoryCursorError);
    s.close();
  });

  it('records the view of each call and filters by view and by the refused status', () => {
    const s = store();
    const call = (id: string, view: string | null, status: 'completed' | 'refused') => {
      s.started({
        id,
        threadId: 't',
        server: 'srv',
        environmentId: null,
        tool: 'rm',
        arguments: { path: '/x', password: 'pw' },
        startedAt: 1,
        view,
      });
      s.finished(id, {
        status,
        result: null,
        error: status === 'refused' ? 'tool `rm` is not in view `triage`' : null,
        durationMs: status === 'refused' ? 0 : 4,
      });
    };
    call('a', 'triage', 'refused');
    call('b', 'triage', 'completed');
    call('c', null, 'completed');
    call('d', 'ops', 'refused');
    expect(s.list().data.map((r) => [r.id, r.view])).toEqual([
      ['d', 'ops'],
      ['c', null],
      ['b', 'triage'],
      ['a', 'triage'],
    ]);
    expect(s.list({ view: 'triage' }).data.map((r) => r.id)).toEqual(['b', 'a']);
    expect(s.list({ view: null }).data.map((r) => r.id)).toEqual(['c']);
    expect(s.list({ status: 'refused' }).data.map((r) => r.id)).toEqual(['d', 'a']);
    expect(s.list({ status: 'refused', view: 'triage' }).data).toEqual([
      {
        id: 'a',
        threadId: 't',
        server: 'srv',
        environmentId: null,
        tool: 'rm',
        arguments: { path: '/x', password: '[REDACTED]' },
        view: 'triage',
        caller: null,
        status: 'refused',
        result: null,
        resultTruncated: false,
        error: 'tool `rm` is not in view `triage`',
        startedAt: 1,
        durationMs: 0,
        task: null,
      },
    ]);
    s.close();
  });

  it('records the caller of each call (none without one) and filters by subject or client id', () => {
    const s = store();
    const call = (
      id: string,
      caller: { subject: string | null; clientId: string | null } | null | undefined,
    ) => {
      s.started({
        id,
        threadId: 't',
        server: 'srv',
        environmentId: null,
        tool: 'echo',
        arguments: null,
        startedAt: 1,
        ...(caller !== undefined ? { caller } : {}),
      });
      s.finished(id, { status: 'completed', result: null, error: null, durationMs: 1 });
    };
    call('alice-web', { subject: 'alice', clientId: 'web' });
    call('alice-cli', { subject: 'alice', clientId: 'cli' });
    call('bot', { subject: null, clientId: 'alice' });
    call('anonymous', { subject: null, clientId: null });
    call('absent', undefined);
    call('none', null);
    expect(s.list().data.map((r) => [r.id, r.caller])).toEqual([
      ['none', null],
      ['absent', null],
      // Neither a subject nor a client id: recorded as no caller.
      ['anonymous', null],
      ['bot', { subject: null, clientId: 'alice' }],
      ['alice-cli', { subject: 'alice', clientId: 'cli' }],
      ['alice-web', { subject: 'alice', clientId: 'web' }],
    ]);
    // The subject or the client id, exactly (no pattern, no prefix, case-sensitive).
    expect(s.list({ caller: 'alice' }).data.map((r) => r.id)).toEqual([
      'bot',
      'alice-cli',
      'alice-web',
    ]);
    expect(s.list({ caller: 'web' }).data.map((r) => r.id)).toEqual(['alice-web']);
    for (const other of ['Alice', 'ali', 'al%', 'al*', '']) {
      expect(s.list({ caller: other }).data, other).toEqual([]);
    }
    expect(s.list({ caller: 'alice', limit: 1 }).nextCursor).not.toBeNull();
    s.close();
  });

  it('keeps at most maxEntries calls, pruning the oldest', () => {
    const s = store({ maxEntries: 50 });
    for (let i = 0; i < 250; i++) record(s, i);
    s.prune();
    const all = s.list({ limit: 500 }).data;
    expect(all).toHaveLength(50);
    expect(all[0]!.id).toBe('c249');
    expect(all.at(-1)!.id).toBe('c200');
    s.close();
  });
});
