// ToolCallTracker with the real history store (ADR 0009, ADR 0017): every event of a call is
// emitted only once the record it announces is on disk, read back from the journal by a second
// store as another process would; events keep their order (started, progress, completed). A
// call's view and caller travel on its events and record; a refused call is one record, no event.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { HistoryJournal } from '../history/journal.js';
import { SqliteHistoryStore } from '../history/sqliteStore.js';
import { ToolCallTracker } from './callTracker.js';

const scope = { environmentId: null, name: 'srv' };

function setup() {
  const file = join(mkdtempSync(join(tmpdir(), 'mcprt-tracker-')), 'history.sqlite');
  const store = new SqliteHistoryStore(file, { redactKeys: [], maxResultBytes: 1000 });
  const seen: string[] = [];
  const statusOnDisk = (id: string) => {
    const other = new SqliteHistoryStore(file, { redactKeys: [], maxResultBytes: 1000 });
    try {
      return other.list({ limit: 500 }).data.find((r) => r.id === id)?.status ?? 'absent';
    } finally {
      other.close();
    }
  };
  const tracker = new ToolCallTracker('thread-1', store, {
    started: (e) => seen.push(`started ${e.id}: ${statusOnDisk(e.id)}`),
    progress: (e) => seen.push(`progress ${e.id} ${e.progress}: ${statusOnDisk(e.id)}`),
    completed: (e) => seen.push(`completed ${e.id}: ${statusOnDisk(e.id)}`),
  });
  return { store, tracker, seen };
}

describe('ToolCallTracker with the SQLite history', () => {
  it('announces a call after its start record is written, and its end after the finish record', async () => {
    const { store, tracker, seen } = setup();
    const call = tracker.begin(scope, { tool: 'echo', callId: 'a' });
    // The session records the start once the request is on its way to the server.
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([]);
    call.record();
    expect(seen).toEqual([]); // not before the record exists
    // Written within START_WRITE_MS when nothing else is written meanwhile (ADR 0022).
    const since = Date.now();
    while (seen.length === 0 && Date.now() - since < 2000) {
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(seen).toEqual(['started a: inProgress']);
    await call.finish({ content: [] }, null);
    expect(seen).toEqual(['started a: inProgress', 'completed a: completed']);
    store.close();
  });

  it('progress or completion before the end of the turn writes the record first', async () => {
    const { store, tracker, seen } = setup();
    const early = tracker.begin(scope, { tool: 'echo', callId: 'p' });
    early.progress({ progress: 1, total: 2 });
    const quick = tracker.begin(scope, { tool: 'echo', callId: 'q' });
    await quick.finish(null, 'boom');
    await early.finish({ content: [] }, null);
    expect(seen).toEqual([
      'started p: inProgress',
      'progress p 1: inProgress',
      'started q: failed',
      'completed q: failed',
      'completed p: completed',
    ]);
    store.close();
  });

  it('writes the start and finish records of a quick call in one journal write', async () => {
    const { store, tracker, seen } = setup();
    const append = vi.spyOn(HistoryJournal.prototype, 'append');
    const call = tracker.begin(scope, { tool: 'echo', callId: 'f' });
    await call.finish({ content: [] }, null);
    expect(append).toHaveBeenCalledTimes(1);
    expect(append.mock.calls[0]![0].split('\n').filter(Boolean)).toHaveLength(2);
    expect(seen).toEqual(['started f: completed', 'completed f: completed']);
    // The caller's callId is the record's id.
    expect(store.list({ limit: 10 }).data.map((r) => r.id)).toEqual(['f']);
    store.close();
  });

  it("writes a lone call's finish record at once; calls finishing together share one write, reported in order", async () => {
    const { store, tracker, seen } = setup();
    const append = vi.spyOn(HistoryJournal.prototype, 'append');
    const lone = tracker.begin(scope, { tool: 'echo', callId: 'l' });
    lone.record();
    // No other call in flight: written and reported before `finish` returns (ADR 0030).
    expect(lone.finish({ content: [] }, null)).toBeUndefined();
    expect(append).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['started l: completed', 'completed l: completed']);

    const a = tracker.begin(scope, { tool: 'echo', callId: 'a' });
    const b = tracker.begin(scope, { tool: 'echo', callId: 'b' });
    a.record();
    b.record();
    const first = a.finish({ content: [] }, null);
    expect(first).toBeInstanceOf(Promise); // b is still in flight: batched
    const second = b.finish(null, 'boom');
    expect(second).toBeInstanceOf(Promise); // a's record is not written yet: after it, in order
    await Promise.all([first, second]);
    expect(append).toHaveBeenCalledTimes(2);
    expect(append.mock.calls[1]![0].split('\n').filter(Boolean)).toHaveLength(4);
    expect(seen.slice(2)).toEqual([
      'started a: completed',
      'started b: failed',
      'completed a: completed',
      'completed b: failed',
    ]);
    store.close();
  });

  it('gives a call without a callId a time-ordered (version 7) UUID, as history stores it', async () => {
    const { store, tracker, seen } = setup();
    const before = Date.now();
    const first = tracker.begin(scope, { tool: 'echo' });
    await first.finish({ content: [] }, null);
    await new Promise((r) => setTimeout(r, 2)); // the next id is from a later millisecond
    const second = tracker.begin(scope, { tool: 'echo' });
    await second.finish({ content: [] }, null);
    const ids = seen.map((line) => /^\w+ ([^:]+):/.exec(line)?.[1] ?? '');
    expect(ids).toHaveLength(4);
    const [a, , b] = ids as [string, string, string, string];
    for (const id of [a, b]) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(Date.now());
    }
    expect(a < b).toBe(true);
    // The id is made once the request is on its way (`record`), from the call's start time.
    const rows = store.list({ limit: 10 }).data;
    for (const id of [a, b]) {
      const row = rows.find((r) => r.id === id);
      expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(row?.startedAt);
    }
    // Found in the history under those ids (a quick call's start shares its finish's write).
    expect(seen).toEqual([
      `started ${a}: completed`,
      `completed ${a}: completed`,
      `started ${b}: completed`,
      `completed ${b}: completed`,
    ]);
    store.close();
  });
});

describe('views in the tracker', () => {
  it('carries the view on events and the history record (null when none)', async () => {
    const { store } = setup();
    const events: { kind: string; id: string; view: string | null | undefined }[] = [];
    const tracker = new ToolCallTracker('thread-1', store, {
      started: (e) => events.push({ kind: 'started', id: e.id, view: e.view }),
      progress: () => undefined,
      completed: (e) => events.push({ kind: 'completed', id: e.id, view: e.view }),
    });
    await tracker.begin(scope, { tool: 'echo', callId: 'v', view: 'triage' }).finish({}, null);
    await tracker.begin(scope, { tool: 'echo', callId: 'n' }).finish({}, null);
    expect(events).toEqual([
      { kind: 'started', id: 'v', view: 'triage' },
      { kind: 'completed', id: 'v', view: 'triage' },
      { kind: 'started', id: 'n', view: null },
      { kind: 'completed', id: 'n', view: null },
    ]);
    expect(store.list().data.map((r) => [r.id, r.view])).toEqual([
      ['n', null],
      ['v', 'triage'],
    ]);
    store.close();
  });

  it('carries the caller on events and records, refused calls included (null when none)', async () => {
    const { store } = setup();
    const events: unknown[] = [];
    const tracker = new ToolCallTracker('thread-c', store, {
      started: (e) => events.push(['started', e.id, e.caller]),
      progress: () => undefined,
      completed: (e) => events.push(['completed', e.id, e.caller]),
    });
    const alice = { subject: 'alice', clientId: 'web' };
    await tracker.begin(scope, { tool: 'echo', callId: 'a', caller: alice }).finish({}, null);
    await tracker.begin(scope, { tool: 'echo', callId: 'n' }).finish({}, null);
    tracker.refused({
      server: 'srv',
      environmentId: null,
      tool: 'rm',
      view: null,
      error: 'no policy',
      caller: { subject: null, clientId: 'ci' },
      callId: 'r',
    });
    expect(events).toEqual([
      ['started', 'a', alice],
      ['completed', 'a', alice],
      ['started', 'n', null],
      ['completed', 'n', null],
    ]);
    expect(store.list().data.map((r) => [r.id, r.status, r.caller])).toEqual([
      ['r', 'refused', { subject: null, clientId: 'ci' }],
      ['n', 'completed', null],
      ['a', 'completed', alice],
    ]);
    expect(store.list({ caller: 'ci' }).data.map((r) => r.id)).toEqual(['r']);
    store.close();
  });

  it('records a refused call (redacted arguments, 0 ms) in one write, without events', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcprt-tracker-')), 'history.sqlite');
    const store = new SqliteHistoryStore(file, { redactKeys: ['pin'], maxResultBytes: 1000 });
    const events: string[] = [];
    const tracker = new ToolCallTracker('thread-r', store, {
      started: () => events.push('started'),
      progress: () => events.push('progress'),
      completed: () => events.push('completed'),
    });
    const append = vi.spyOn(HistoryJournal.prototype, 'append');
    const before = Date.now();
    tracker.refused({
      server: 'files',
      environmentId: 'alpha',
      tool: 'rm',
      arguments: {
        path: '/etc',
        pin: '1234',
        auth: { token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
      },
      view: 'triage',
      error: 'tool `rm` of `files@alpha` is not in view `triage`',
    });
    tracker.refused({
      server: 'files',
      environmentId: null,
      tool: 'ls',
      view: null,
      error: 'refused',
      callId: 'call_given',
    });
    expect(append).toHaveBeenCalledTimes(2); // each call's start and finish: one write
    expect(append.mock.calls[0]![0].split('\n').filter(Boolean)).toHaveLength(2);
    expect(append.mock.calls.join('')).not.toMatch(/1234|ghp_/);
    expect(events).toEqual([]);
    expect(tracker.inFlight).toBe(0);
    const [given, rm] = store.list().data;
    expect(given).toMatchObject({ id: 'call_given', view: null, arguments: null, tool: 'ls' });
    expect(rm).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/) as unknown,
      threadId: 'thread-r',
      server: 'files',
      environmentId: 'alpha',
      tool: 'rm',
      arguments: { path: '/etc', pin: '[REDACTED]', auth: '[REDACTED]' },
      view: 'triage',
      caller: null,
      status: 'refused',
      result: null,
      resultTruncated: false,
      error: 'tool `rm` of `files@alpha` is not in view `triage`',
      startedAt: expect.any(Number) as unknown,
      durationMs: 0,
      task: null,
    });
    expect(rm!.startedAt).toBeGreaterThanOrEqual(before);
    store.close();
  });

  it('records nothing without a history, and warns (never throws) when the write fails', () => {
    const events: string[] = [];
    const emitter = {
      started: () => events.push('started'),
      progress: () => undefined,
      completed: () => events.push('completed'),
    };
    const refusal = { server: 's', environmentId: null, tool: 't', view: 'v', error: 'no' };
    expect(() => new ToolCallTracker('t', null, emitter).refused(refusal)).not.toThrow();

    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const failing = {
      started: () => {
        throw new Error('disk full');
      },
      finished: () => undefined,
    };
    expect(() => new ToolCallTracker('t', failing, emitter).refused(refusal)).not.toThrow();
    expect(warn).toHaveBeenCalledWith('mcprt: could not record tool call in history: disk full');
    expect(events).toEqual([]);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
