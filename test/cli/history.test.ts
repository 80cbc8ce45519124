// `mcprt history` over a home whose history a real session wrote (a real fixture server): the view
// a call was made through is shown (`[view NAME]`) and is in `--json` (null when none), `--view`
// and `--status refused` filter, and bad values are usage errors (exit 2).
import { describe, expect, it } from 'vitest';

import { Runtime } from '@mcprt/runtime';

import { mcprt } from '../helpers/cliRun.js';
import { echoServer, makeHome } from '../helpers/fixtures.js';

const REFUSAL = 'tool `fail` of `echo` is not in view `triage`';

/** A home with three recorded calls: through `triage`, through no view, refused by `triage`. */
async function homeWithHistory(): Promise<string> {
  const home = makeHome(
    `${echoServer('mcp_servers.echo', 'echo')}[history]\nredact_keys = ["pin"]\n`,
  );
  const runtime = Runtime.load({ home });
  try {
    const session = runtime.startSession({ threadId: 'thread-cli' });
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
      arguments: { pin: '4321' },
      view: 'triage',
      error: REFUSAL,
    });
  } finally {
    await runtime.close();
  }
  return home;
}

describe('mcprt history with views', () => {
  it('shows the view, filters by --view and --status refused, and has view in --json', async () => {
    const home = await homeWithHistory();

    const all = await mcprt(home, 'history');
    expect(all.code).toBe(0);
    const lines = all.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    // Newest first; a refused call has no duration (it never reached a server).
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}refused {4}echo\.fail\(\{"pin":"\[REDACTED\]"\}\) {2}\[view triage\] {2}tool `fail` of `echo` is not in view `triage`$/,
    );
    expect(lines[1]).toMatch(/ completed {2}echo\.echo\(\{"message":"b"\}\) \d+ ms$/);
    expect(lines[2]).toMatch(
      / completed {2}echo\.echo\(\{"message":"a"\}\) \d+ ms {2}\[view triage\]$/,
    );

    const viewed = await mcprt(home, 'history', '--view', 'triage');
    expect(
      viewed.stdout
        .trimEnd()
        .split('\n')
        .map((l) => /(refused|completed)/.exec(l)?.[1]),
    ).toEqual(['refused', 'completed']);
    expect((await mcprt(home, 'history', '--view', 'ops')).stdout).toBe(
      'No tool calls recorded.\n',
    );

    const refused = await mcprt(home, 'history', '--status', 'refused', '--json');
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.stdout)).toEqual({
      data: [
        expect.objectContaining({
          threadId: 'thread-cli',
          server: 'echo',
          tool: 'fail',
          arguments: { pin: '[REDACTED]' },
          view: 'triage',
          status: 'refused',
          result: null,
          error: REFUSAL,
          durationMs: 0,
        }),
      ],
      nextCursor: null,
    });

    const json = JSON.parse((await mcprt(home, 'history', '--json')).stdout) as {
      data: { view: string | null }[];
    };
    expect(json.data.map((r) => r.view)).toEqual(['triage', null, 'triage']);
    const both = JSON.parse(
      (await mcprt(home, 'history', '--json', '--view', 'triage', '--status', 'completed')).stdout,
    ) as { data: { arguments: unknown }[] };
    expect(both.data.map((r) => r.arguments)).toEqual([{ message: 'a' }]);
  });

  it('refuses an empty --view and an unknown --status with exit code 2', async () => {
    const home = makeHome('');
    for (const view of ['', '  ']) {
      expect(await mcprt(home, 'history', '--view', view)).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringContaining('history: --view needs a view name') as unknown,
      });
    }
    expect(await mcprt(home, 'history', '--view')).toMatchObject({ code: 2, stdout: '' });
    expect(await mcprt(home, 'history', '--status', 'rejected')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '--status must be one of inProgress, completed, failed, cancelled, refused',
      ) as unknown,
    });
  });
});
