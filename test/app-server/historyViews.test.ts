// `history/list` over a history a real session wrote (a real fixture server), through the
// in-process app-server and the SDK as `mcprt` wires them: every entry carries `view` (null when
// none) and is valid against the generated schema, `view` and `status: "refused"` filter, and a
// bad `view` or `status` is an invalid-params error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AppServer } from '@mcprt/app-server';
import { HistoryListResult } from '@mcprt/protocol';
import { Runtime } from '@mcprt/runtime';
import { McprtClient } from '@mcprt/sdk';

import { InProcessTransport } from '../../packages/cli/src/inProcess.js';
import { echoServer, makeHome } from '../helpers/fixtures.js';

const REFUSAL = 'tool `fail` of `echo` is not in view `triage`';

describe('history/list with views', () => {
  let runtime: Runtime;
  let server: AppServer;
  let client: McprtClient;

  beforeAll(async () => {
    const home = makeHome(`${echoServer('mcp_servers.echo', 'echo')}[history]\n`);
    runtime = Runtime.load({ home });
    const session = runtime.startSession({ threadId: 'thread-a' });
    await session.ready();
    await session.callTool({
      server: 'echo',
      tool: 'echo',
      arguments: { message: 'a' },
      view: 'triage',
    });
    await session.callTool({ server: 'echo', tool: 'echo', arguments: { message: 'b' } });
    session.recordRefusedCall({
      server: 'echo',
      environmentId: null,
      tool: 'fail',
      arguments: { password: 'hunter2' },
      view: 'triage',
      error: REFUSAL,
    });
    await session.close();
    server = new AppServer({ runtime, home, log: () => {} });
    client = await McprtClient.create(new InProcessTransport(server));
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('lists each call with its view, and filters by view and refused status', async () => {
    const all = await client.request('history/list', {});
    expect(HistoryListResult.safeParse(all).success).toBe(true);
    expect(all.data.map((r) => [r.tool, r.status, r.view])).toEqual([
      ['fail', 'refused', 'triage'],
      ['echo', 'completed', null],
      ['echo', 'completed', 'triage'],
    ]);
    const triage = await client.request('history/list', { view: 'triage' });
    expect(triage.data.map((r) => r.status)).toEqual(['refused', 'completed']);
    // null is "not given", as for the method's other filters.
    expect((await client.request('history/list', { view: null })).data).toHaveLength(3);
    expect((await client.request('history/list', { view: 'ops' })).data).toEqual([]);
    const refused = await client.request('history/list', { status: 'refused', view: 'triage' });
    expect(refused.data).toEqual([
      expect.objectContaining({
        threadId: 'thread-a',
        tool: 'fail',
        arguments: { password: '[REDACTED]' },
        view: 'triage',
        status: 'refused',
        result: null,
        error: REFUSAL,
        durationMs: 0,
      }),
    ]);
  });

  it('rejects an empty or non-string view and an unknown status as invalid requests', async () => {
    const bad = [{ view: '' }, { view: 7 }, { view: ['triage'] }, { status: 'rejected' }];
    const messages: string[] = [];
    for (const params of bad) {
      const error = await client.request('history/list', params as never).catch((e: unknown) => e);
      expect(error, JSON.stringify(params)).toMatchObject({ code: -32600 });
      messages.push((error as Error).message);
    }
    expect(messages).toEqual([
      'Invalid request: invalid value: expected string >= 1 at `view`',
      'Invalid request: invalid type: expected string at `view`',
      'Invalid request: invalid type: expected string at `view`',
      'Invalid request: unknown variant `rejected`, expected one of `inProgress`, `completed`, `failed`, `cancelled`, `refused`',
    ]);
  });
});
