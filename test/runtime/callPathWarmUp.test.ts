// The call path's priming (ADR 0027): once per process, while a session's servers start, the
// pure steps of a tool call run on synthetic data. It must send nothing to any server, write no
// history, emit no event, and leave the first real call exactly as it was (its request id, its
// events, its record). A real dependency-free server that reports every message it received
// (test/fixtures/servers/fastpath-server.mjs, tool `arrivals`), durable history on.
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { callPathPrimed } from '../../packages/runtime/src/manager/callPathWarmUp.js';
import { arr, FIXTURES, NODE, q, text } from '../helpers/fixtures.js';
import { historyBytes } from '../helpers/history.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();
const FASTPATH_SERVER = join(FIXTURES, 'fastpath-server.mjs');

describe('priming the call path', () => {
  it('runs while the servers start and sends, records and emits nothing', async () => {
    expect(callPathPrimed()).toBe(false);
    const runtime = load(
      `[mcp_servers.fp]\ncommand = ${q(NODE)}\nargs = ${arr([FASTPATH_SERVER])}\n`,
    );
    const events: string[] = [];
    const session = runtime.startSession();
    session.on('toolCallStarted', (e) => events.push(`started ${e.tool}`));
    session.on('toolCallProgress', (e) => events.push(`progress ${e.id}`));
    session.on('toolCallCompleted', (e) => events.push(`completed ${e.tool} (${e.status})`));
    await session.ready();
    await expect.poll(() => callPathPrimed()).toBe(true);
    // Let anything the priming might have scheduled run.
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(events).toEqual([]);
    expect(runtime.history?.list().data).toEqual([]);
    const home = dirname(runtime.history!.file);
    expect(historyBytes(home)).not.toContain('warm-up');

    // The server saw no tools/call before this one, which has the connection's first id.
    const result = await session.callTool({ server: 'fp', tool: 'arrivals' });
    const arrivals = JSON.parse(text(result)) as string[];
    expect(arrivals.filter((a) => a.startsWith('tools/call'))).toEqual(['tools/call mcprt-1']);
    expect(arrivals.at(-1)).toBe('tools/call mcprt-1');
    expect(JSON.stringify(arrivals)).not.toContain('warm-up');
    expect(events).toEqual(['started arrivals', 'completed arrivals (completed)']);
    const records = runtime.history?.list().data ?? [];
    expect(records.map((r) => [r.server, r.tool, r.status])).toEqual([
      ['fp', 'arrivals', 'completed'],
    ]);
    expect(historyBytes(home)).not.toContain('warm-up');
  });
});
