// The history of a real session against a real fixture server: a call records the view it was
// made through (`callTool({ …, view })`, null without one) on its record and events, and a call
// a view refused (`session.recordRefusedCall`) is recorded as `refused` — arguments redacted like
// any call's, 0 ms, no event — and read back by the home's next process.
import { dirname } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { ToolCallCompleted, ToolCallStarted } from '@mcprt/runtime';
import { SqliteHistoryStore } from '@mcprt/runtime';

import { echoServer, text } from '../helpers/fixtures.js';
import { historyBytes } from '../helpers/history.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();
const CONFIG = `${echoServer('mcp_servers.echo', 'echo')}[history]\nredact_keys = ["pin"]\n`;

describe('tool-call history with views', () => {
  it('records the view of each call, and refused calls', async () => {
    const runtime = load(CONFIG);
    const session = runtime.startSession({ threadId: 'thread-views' });
    await session.ready();
    const events: (ToolCallStarted | ToolCallCompleted)[] = [];
    session.on('toolCallStarted', (e) => events.push(e));
    session.on('toolCallCompleted', (e) => events.push(e));

    const viewed = await session.callTool({
      server: 'echo',
      tool: 'echo',
      arguments: { message: 'through triage' },
      view: 'triage',
    });
    expect(text(viewed)).toContain('through triage');
    await session.callTool({ server: 'echo', tool: 'echo', arguments: { message: 'plain' } });
    session.recordRefusedCall({
      server: 'echo',
      environmentId: null,
      tool: 'fail',
      arguments: { message: 'PIN=4321', pin: '4321' },
      view: 'triage',
      error: 'tool `fail` of `echo` is not in view `triage`',
    });

    expect(events.map((e) => [e.tool, 'status' in e ? e.status : 'started', e.view])).toEqual([
      ['echo', 'started', 'triage'],
      ['echo', 'completed', 'triage'],
      ['echo', 'started', null],
      ['echo', 'completed', null],
    ]);
    const store = runtime.history!;
    expect(
      store.list({ threadId: 'thread-views' }).data.map((r) => [r.tool, r.status, r.view]),
    ).toEqual([
      ['fail', 'refused', 'triage'],
      ['echo', 'completed', null],
      ['echo', 'completed', 'triage'],
    ]);
    const [refused] = store.list({ status: 'refused' }).data;
    expect(refused).toMatchObject({
      threadId: 'thread-views',
      server: 'echo',
      environmentId: null,
      arguments: { message: 'PIN=[REDACTED]', pin: '[REDACTED]' },
      result: null,
      error: 'tool `fail` of `echo` is not in view `triage`',
      durationMs: 0,
    });
    expect(store.list({ view: 'triage' }).data.map((r) => r.status)).toEqual([
      'refused',
      'completed',
    ]);
    expect(historyBytes(dirname(store.file))).not.toContain('4321');

    // The next process on the home reads the same records (closing ingests the journal).
    await runtime.close();
    const next = new SqliteHistoryStore(store.file, {
      redactKeys: [],
      maxResultBytes: 65536,
    });
    try {
      expect(next.list({ view: 'triage', status: 'refused' }).data.map((r) => r.tool)).toEqual([
        'fail',
      ]);
    } finally {
      next.close();
    }
  });

  it('records nothing for a refused call when history is disabled', async () => {
    const runtime = load(`${echoServer('mcp_servers.echo', 'echo')}[history]\nenabled = false\n`);
    const session = runtime.startSession();
    expect(runtime.history).toBeNull();
    expect(() =>
      session.recordRefusedCall({
        server: 'echo',
        environmentId: null,
        tool: 'echo',
        view: 'v',
        error: 'refused',
      }),
    ).not.toThrow();
  });
});
