// `Runtime.onFirstToolCall` (ADR 0026): a listener runs once, soon after the first tool call of
// any of the runtime's sessions completes — in a later turn than that call's `toolCallCompleted`
// event and its result, whatever its outcome — and at once when registered later. Real echo servers, two sessions.
import { describe, expect, it } from 'vitest';

import { echoServer } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

describe('Runtime.onFirstToolCall', () => {
  it('runs once, after the first completed call of any session, a failed one too', async () => {
    const runtime = load(echoServer('mcp_servers.echo', 'local'));
    const order: string[] = [];
    runtime.onFirstToolCall(() => order.push('first call (early listener)'));
    const one = runtime.startSession();
    const two = runtime.startSession();
    one.on('toolCallCompleted', (e) => order.push(`completed ${e.tool} (${e.status})`));
    two.on('toolCallCompleted', (e) => order.push(`completed ${e.tool} (${e.status})`));
    await Promise.all([one.ready(), two.ready()]);
    expect(order).toEqual([]);

    const failed = await two.callTool({ server: 'echo', tool: 'fail' });
    order.push('result');
    expect(failed.isError).toBe(true);
    await expect
      .poll(() => order)
      .toEqual(['completed fail (failed)', 'result', 'first call (early listener)']);

    await one.callTool({ server: 'echo', tool: 'echo', arguments: { message: 'hi' } });
    await two.callTool({ server: 'echo', tool: 'echo', arguments: { message: 'hi' } });
    runtime.onFirstToolCall(() => order.push('first call (late listener)'));
    expect(order).toEqual([
      'completed fail (failed)',
      'result',
      'first call (early listener)',
      'completed echo (completed)',
      'completed echo (completed)',
      'first call (late listener)',
    ]);
  });

  it('does not run for a runtime whose sessions made no call', async () => {
    const runtime = load(echoServer('mcp_servers.echo', 'local'));
    let runs = 0;
    runtime.onFirstToolCall(() => (runs += 1));
    const session = runtime.startSession();
    await session.ready();
    expect(session.tools().map((t) => t.tool.name)).toContain('echo');
    const read = await session.readResource({ server: 'echo', uri: 'fixture://greeting' });
    expect(read.contents).toHaveLength(1);
    await session.close();
    expect(runs).toBe(0);
  });
});
