/**
 * The whole TUI (`App` + `TuiController`) against a real in-process app-server and real MCP
 * servers, at 60 columns: live `/mcp` with the same name in two environments, a failed server
 * with its stderr tail, an HTTP server that needs a login, `/call` cells, an elicitation form
 * answered from the keyboard, `/history`, and a login error reported inline.
 */

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  echoServer,
  HTTP_SERVER,
  isAlive,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import type { TuiUnderTest } from './harness.js';
import { startTui } from './harness.js';
import { expectFits, words } from '../../packages/tui/src/testing/render.js';

const COLUMNS = 60;

describe('the TUI on an in-process app-server', () => {
  let http: ChildProcess;
  let tui: TuiUnderTest;

  beforeAll(async () => {
    http = spawn(NODE, [HTTP_SERVER, '--token', 'tok-tui-test', '--name', 'web'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve) =>
      http.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
    const cwd = tempDir();
    tui = await startTui(
      echoServer('mcp_servers.shared', 'shared-local') +
        `[mcp_servers.web]\nurl = ${q(`http://127.0.0.1:${port}/mcp`)}\n` +
        shExecEnvironment('sandbox', cwd) +
        echoServer('environments.sandbox.mcp_servers.shared', 'shared-sandbox') +
        shExecEnvironment('buildbox', cwd) +
        echoServer(
          'environments.buildbox.mcp_servers.broken',
          'broken',
          'args = ' +
            JSON.stringify([
              `${process.cwd()}/test/fixtures/servers/echo-server.mjs`,
              '--stderr',
              'loading plugins from /opt/broken/plugins\nwarning: plugin cache is stale\nfatal: cannot load libfoo.so.1',
              '--exit-code',
              '3',
            ]),
        ).replace(/^args = .*\n/m, ''),
      COLUMNS,
    );
  });

  afterAll(async () => {
    await tui?.close();
    http?.kill();
  });

  it('shows /mcp live at start: both `shared` registrations, the failure, the login needed', async () => {
    const frame = await tui.waitForFrame(
      (f) =>
        f.includes('  • shared: connected') &&
        f.includes('shared@sandbox: connected') &&
        f.includes('broken@buildbox: failed'),
      '/mcp settled',
    );
    expect(frame).toContain('thread-wide\n  • shared: connected (');
    expect(frame).toContain('  • web: authentication required');
    expect(frame).toContain('environment sandbox (exec)\n  • shared@sandbox: connected (');
    expect(frame).toContain('environment buildbox (exec)\n  • broken@buildbox: failed');
    expect(frame).toContain('Use /mcp verbose for tools, resources and failure causes.');
    expectFits(frame, COLUMNS);
  });

  it('/mcp verbose shows the cause and stderr tail of the failed server and how to log in', async () => {
    await tui.run('/mcp verbose');
    const frame = await tui.waitForFrame(
      (f) => f.includes('/mcp verbose\nthread-wide'),
      '/mcp verbose',
    );
    const verbose = frame.slice(frame.lastIndexOf('/mcp verbose\nthread-wide'));
    expect(verbose).toContain('      Login: /mcp login web');
    expect(verbose).toContain('      Auth: Unsupported');
    const broken = verbose.slice(verbose.indexOf('• broken@buildbox'));
    expect(broken).toMatch(/Cause: MCP client for `broken@buildbox` failed/);
    // The runtime's cause quotes the whole stderr tail, so it is shown once, wrapped.
    expect(words(broken)).toEqual(
      expect.arrayContaining(
        words(
          'loading plugins from /opt/broken/plugins | warning: plugin cache is stale | fatal: cannot load libfoo.so.1',
        ),
      ),
    );
    expect(broken).not.toContain('Stderr (last lines)');
    expectFits(frame, COLUMNS);
  });

  it('/call reaches the selected registration and shows its result, without --environment the thread-wide one', async () => {
    await tui.run('/call shared echo {"message":"hi"} --environment sandbox');
    await tui.waitForFrame((f) => f.includes('shared-sandbox: hi'), 'sandbox result');
    await tui.run('/call shared echo {"message": "hello there"}');
    const frame = await tui.waitForFrame(
      (f) => f.includes('shared-local: hello there'),
      'local result',
    );
    expect(frame).toMatch(
      /• Called shared@sandbox\.echo\(\{"message":"hi"\}\)\n {2}└ completed in \d+(\.\d)? m?s\n {4}shared-sandbox: hi/,
    );
    expect(frame).toMatch(
      /• Called shared\.echo\(\{"message":"hello there"\}\)\n {2}└ completed in/,
    );
    await tui.run('/call shared echo {"message":"x"} --environment nowhere');
    const failed = await tui.waitForFrame((f) => f.includes('nowhere.echo'), 'unknown environment');
    expect(failed).toMatch(
      /• Called shared@nowhere\.echo\(\{"message":"x"\}\)\n {2}└ failed in \d+ ms\n {4}Error: unknown environment id `nowhere`/,
    );
    expectFits(failed, COLUMNS);
  });

  it('answers an elicitation from the keyboard, naming the asking registration', async () => {
    await tui.run('/call shared ask {} --environment sandbox');
    let frame = await tui.waitForFrame((f) => f.includes('asks for input'), 'the form');
    expect(frame).toContain('shared@sandbox asks for input\n  shared-sandbox asks\n  › Answer *');
    expect(frame).toMatch(/ {4}count\n {6}7/);
    await tui.press('\r');
    frame = await tui.waitForFrame(
      (f) => f.includes('! Answer is required'),
      'the validation message',
    );
    expectFits(frame, COLUMNS);
    await tui.press('forty-two', '\r');
    frame = await tui.waitForFrame((f) => f.includes('"answer":"forty-two"'), 'the tool result');
    // The result preview is wrapped at 60 columns under a 4-space indent.
    const preview = frame.slice(frame.indexOf('• Called shared@sandbox.ask({})'));
    expect(preview.replace(/\n {4}/g, '')).toContain(
      '{"action":"accept","content":{"answer":"forty-two","count":7}}',
    );
    expect(frame).toContain('• shared@sandbox asked for input: accepted');
  });

  it('/history lists this session’s calls with their environments, newest first', async () => {
    await tui.run('/history');
    const frame = await tui.waitForFrame(
      (f) => f.includes('/history (this session)\n'),
      '/history',
    );
    const rows = frame.slice(frame.lastIndexOf('/history (this session)')).split('\n').slice(1, 4);
    // A call to an unknown environment never reached a server, so it is not recorded.
    expect(
      rows.map((r) => r.replace(/^ {2}\d\d:\d\d:\d\d {2}/, '').replace(/ {2}\d+(\.\d)? m?s$/, '')),
    ).toEqual([
      'shared@sandbox.ask  completed',
      'shared.echo  completed',
      'shared@sandbox.echo  completed',
    ]);
    await tui.run('/history --environment sandbox');
    const filtered = await tui.waitForFrame(
      (f) => f.includes('/history (environment sandbox'),
      'filtered',
    );
    const onlySandbox = filtered
      .slice(filtered.lastIndexOf('/history (environment sandbox'))
      .split('\n')
      .slice(1, 3);
    expect(onlySandbox.every((r) => r.includes('shared@sandbox.'))).toBe(true);
  });

  it('reports a login for a scope that has no such server inline', async () => {
    await tui.run('/mcp login web --environment sandbox');
    const frame = await tui.waitForFrame((f) => f.includes('• Login web@sandbox failed'), 'login');
    expect(frame).toContain(
      "• Login web@sandbox failed\n    Error: unknown MCP server 'web (environment sandbox)'",
    );
  });
});

describe('the in-process transport', () => {
  it('leaving the TUI closes its connection, and the app-server stops the thread’s servers', async () => {
    const tui = await startTui(
      shExecEnvironment('sandbox', tempDir()) +
        echoServer('environments.sandbox.mcp_servers.shared', 'shared-sandbox'),
      100,
    );
    await tui.waitForFrame((f) => f.includes('shared@sandbox: connected'), 'connected');
    const result = await tui.client.request('mcpServer/tool/call', {
      threadId: tui.controller.getSnapshot().threadId!,
      server: 'shared',
      environmentId: 'sandbox',
      tool: 'whoami',
    });
    const pid = (JSON.parse(text(result)) as { pid: number }).pid;
    expect(isAlive(pid)).toBe(true);
    // Only the client side closes: the app-server must notice and close the thread.
    await tui.client.close();
    await waitFor(() => !isAlive(pid), 10_000, 'the server process to exit');
    await tui.close();
  });
});
