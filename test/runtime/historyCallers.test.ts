// The history of a real session against a real fixture server: a call made for a gateway's caller
// (`callTool({ …, caller })`) records the caller's subject and client id on its record and events
// (null without one), so do calls refused by a view — the host's (`recordRefusedCall`) and the
// session's own — and `list({ caller })` finds them by subject or client id. Only the identity is
// stored (the two texts), and the home's next process reads it back.
import { dirname } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { ToolCallCompleted, ToolCallStarted } from '@mcprt/runtime';
import { SqliteHistoryStore } from '@mcprt/runtime';

import { echoServer } from '../helpers/fixtures.js';
import { historyBytes } from '../helpers/history.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();
const CONFIG = `${echoServer('mcp_servers.echo', 'echo')}[views.triage]\ninclude = ["-/echo/echo"]\n`;
const ALICE = { subject: 'auth0|alice', clientId: 'web' };
const CI = { subject: null, clientId: 'ci-bot' };

describe('tool-call history with callers', () => {
  it('records the caller of each call, refused ones included, and filters by it', async () => {
    const runtime = load(CONFIG);
    const session = runtime.startSession({ threadId: 'thread-callers' });
    await session.ready();
    const events: (ToolCallStarted | ToolCallCompleted)[] = [];
    session.on('toolCallStarted', (e) => events.push(e));
    session.on('toolCallCompleted', (e) => events.push(e));

    await session.callTool({
      server: 'echo',
      tool: 'echo',
      arguments: { message: 'for alice' },
      caller: ALICE,
    });
    await session.callTool({ server: 'echo', tool: 'echo', arguments: { message: 'no caller' } });
    session.recordRefusedCall({
      server: 'echo',
      environmentId: null,
      tool: 'fail',
      view: null,
      error: 'tool `fail` is not available to ci-bot (policy `ci`)',
      caller: CI,
    });
    // A session under a view refuses (and records) a call outside it with its caller.
    const viewed = runtime.startSession({ threadId: 'thread-viewed', view: 'triage' });
    await viewed.ready();
    await expect(
      viewed.callTool({ server: 'echo', tool: 'fail', arguments: {}, caller: ALICE }),
    ).rejects.toThrow(/not in view `triage`/);

    expect(events.map((e) => [e.tool, 'status' in e ? e.status : 'started', e.caller])).toEqual([
      ['echo', 'started', ALICE],
      ['echo', 'completed', ALICE],
      ['echo', 'started', null],
      ['echo', 'completed', null],
    ]);
    const store = runtime.history!;
    const rows = () =>
      store.list().data.map((r) => [r.threadId, r.tool, r.status, r.view, r.caller]);
    const expected = [
      ['thread-viewed', 'fail', 'refused', 'triage', ALICE],
      ['thread-callers', 'fail', 'refused', null, CI],
      ['thread-callers', 'echo', 'completed', null, null],
      ['thread-callers', 'echo', 'completed', null, ALICE],
    ];
    expect(rows()).toEqual(expected);
    // By subject or by client id, exactly.
    expect(store.list({ caller: 'auth0|alice' }).data.map((r) => r.status)).toEqual([
      'refused',
      'completed',
    ]);
    expect(store.list({ caller: 'web', status: 'completed' }).data).toMatchObject([
      { arguments: { message: 'for alice' }, caller: ALICE },
    ]);
    expect(store.list({ caller: 'ci-bot' }).data.map((r) => r.tool)).toEqual(['fail']);
    expect(store.list({ caller: 'alice' }).data).toEqual([]);

    // The next process on the home reads the same records (closing ingests the journal).
    await runtime.close();
    expect(historyBytes(dirname(store.file))).toContain('auth0|alice');
    const next = new SqliteHistoryStore(store.file, { redactKeys: [], maxResultBytes: 65536 });
    try {
      expect(next.list().data.map((r) => [r.threadId, r.tool, r.status, r.view, r.caller])).toEqual(
        expected,
      );
    } finally {
      next.close();
    }
  });
});
