// `mcprt history` over a home whose history a real session wrote (a real fixture server): the view
// a call was made through is shown (`[view NAME]`) and is in `--json` (null when none), `--view`
// and `--status refused` filter, and bad values are usage errors (exit 2). The gateway caller of a
// call is shown (`[caller SUBJECT (client ID)]`, terminal-safe, on its one line) and is in
// `--json` (null when none); `--caller` filters by subject or client id.
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

/** Text a token's issuer let someone choose: a fake second record and an OSC 52 clipboard write. */
const HOSTILE_SUBJECT =
  'mallory\n2099-01-01T00:00:00.000Z  completed  echo.echo({"message":"fake"}) 1 ms\u001b]52;c;ZXZpbA==\u0007';

/** A home with calls by alice (web), by a client-only caller, by a hostile subject and by none. */
async function homeWithCallers(): Promise<string> {
  const home = makeHome(echoServer('mcp_servers.echo', 'echo'));
  const runtime = Runtime.load({ home });
  try {
    const session = runtime.startSession({ threadId: 'thread-callers' });
    await session.ready();
    const call = (message: string, caller?: { subject: string | null; clientId: string | null }) =>
      session.callTool({
        server: 'echo',
        tool: 'echo',
        arguments: { message },
        ...(caller !== undefined ? { caller } : {}),
      });
    await call('a', { subject: 'auth0|alice', clientId: 'web' });
    await call('b');
    await call('c', { subject: null, clientId: 'ci-bot' });
    await call('d', { subject: HOSTILE_SUBJECT, clientId: null });
    session.recordRefusedCall({
      server: 'echo',
      environmentId: null,
      tool: 'fail',
      view: null,
      error: 'tool `fail` is not available to ci-bot (policy `ci`)',
      caller: { subject: null, clientId: 'ci-bot' },
    });
  } finally {
    await runtime.close();
  }
  return home;
}

describe('mcprt history with callers', () => {
  it('shows the caller, filters by --caller and has caller in --json', async () => {
    const home = await homeWithCallers();

    const all = await mcprt(home, 'history');
    expect(all.code).toBe(0);
    const lines = all.stdout.trimEnd().split('\n');
    // One line per call: the hostile subject's line break cannot start a line of its own.
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(
      / refused {4}echo\.fail\(\) {2}\[caller client ci-bot\] {2}tool `fail` is not available to ci-bot \(policy `ci`\)$/,
    );
    expect(lines[1]).toMatch(
      / completed {2}echo\.echo\(\{"message":"d"\}\) \d+ ms {2}\[caller mallory\?2099-01-01T00:00:00\.000Z {2}completed {2}echo\.echo\(\{"message":"fake"\}\) 1 ms\]$/,
    );
    expect(all.stdout).not.toContain('\u001b');
    expect(all.stdout).not.toContain('\u0007');
    expect(all.stdout).not.toContain('ZXZpbA==');
    expect(lines[2]).toMatch(
      / completed {2}echo\.echo\(\{"message":"c"\}\) \d+ ms {2}\[caller client ci-bot\]$/,
    );
    expect(lines[3]).toMatch(/ completed {2}echo\.echo\(\{"message":"b"\}\) \d+ ms$/);
    expect(lines[4]).toMatch(
      / completed {2}echo\.echo\(\{"message":"a"\}\) \d+ ms {2}\[caller auth0\|alice \(client web\)\]$/,
    );

    const messages = async (...argv: string[]) => {
      const result = await mcprt(home, 'history', '--json', ...argv);
      expect(result.code).toBe(0);
      return (
        JSON.parse(result.stdout) as { data: { arguments: { message?: string } | null }[] }
      ).data.map((r) => r.arguments?.message ?? null);
    };
    // By subject or by client id, exactly.
    expect(await messages('--caller', 'auth0|alice')).toEqual(['a']);
    expect(await messages('--caller', 'web')).toEqual(['a']);
    expect(await messages('--caller', 'ci-bot')).toEqual([null, 'c']);
    expect(await messages('--caller', 'ci-bot', '--status', 'refused')).toEqual([null]);
    expect(await messages('--caller', 'alice')).toEqual([]);
    expect((await mcprt(home, 'history', '--caller', 'nobody')).stdout).toBe(
      'No tool calls recorded.\n',
    );

    const json = JSON.parse((await mcprt(home, 'history', '--json')).stdout) as {
      data: { caller: unknown }[];
    };
    // JSON keeps the text as recorded (escaped by JSON itself).
    expect(json.data.map((r) => r.caller)).toEqual([
      { subject: null, clientId: 'ci-bot' },
      { subject: HOSTILE_SUBJECT, clientId: null },
      { subject: null, clientId: 'ci-bot' },
      null,
      { subject: 'auth0|alice', clientId: 'web' },
    ]);
  });

  it('refuses an empty --caller with exit code 2', async () => {
    const home = makeHome('');
    expect(await mcprt(home, 'history', '--caller', '')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('history: --caller needs a subject or client id') as unknown,
    });
    expect(await mcprt(home, 'history', '--caller')).toMatchObject({ code: 2, stdout: '' });
  });
});
