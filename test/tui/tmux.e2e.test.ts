/**
 * End to end: the real `mcprt` TUI on a real terminal (tmux), on the bundled demo config — opened
 * by `npm start` as a person would — driven with send-keys and read with capture-pane. Also the
 * 60-column terminal (soft-wrapped lines are detected with `capture-pane -J`), an OAuth login
 * completed by pasting the redirect URL and a logout, both with `--environment`, and CI mode, where
 * the bare `mcprt` prints the status view even on a terminal. tmux is a system package `npm test`
 * installs (scripts/system/packages.mjs).
 */

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { directEnvironment, httpServerTable } from '../auth/helpers.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import { makeHome, NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';
import { displayWidth } from '../../packages/tui/src/text/fit.js';
import { settled, Tmux } from './tmuxHarness.js';

const term = new Tmux(`mcprt-tui-e2e-${process.pid}`);
const tmux = (...args: string[]) => term.run(...args);
const session = (name: string, columns: number, command: string, env = '') =>
  term.session(name, columns, command, env);
const capture = (name: string, joined = false) => term.capture(name, joined);
const send = (name: string, text: string) => term.send(name, text);
const waitForPane = (
  name: string,
  check: (pane: string) => boolean,
  what: string,
  timeoutMs = 45_000,
) => term.waitFor(name, check, what, timeoutMs);

/** `mcprt app-server --listen ws://127.0.0.1:0` on the demo config; resolves with its URL. */
function startWsAppServer(tokenFile: string): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(
    NODE,
    [
      CLI,
      '--home',
      'demo',
      'app-server',
      '--listen',
      'ws://127.0.0.1:0',
      '--ws-token-file',
      tokenFile,
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += String(d);
      const m = /listening on (ws:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`app-server exited with ${code}: ${err}`)));
  });
  return { child, url };
}

describe('the TUI in a real terminal (tmux) on the demo config', () => {
  let appServer: ChildProcess | undefined;
  let remoteUrl = '';

  beforeAll(async () => {
    session('main', 100, 'npm start --silent');
    session('narrow', 60, 'node packages/cli/dist/main.js --home demo');
    session('ci', 100, 'node packages/cli/dist/main.js --home demo', 'CI=true');
    const tokenFile = join(tempDir(), 'ws.token');
    writeFileSync(tokenFile, 'a-test-token-of-enough-length\n', { mode: 0o600 });
    const ws = startWsAppServer(tokenFile);
    appServer = ws.child;
    remoteUrl = await ws.url;
    session(
      'remote',
      100,
      `node packages/cli/dist/main.js --remote ${remoteUrl} --token-file ${tokenFile}`,
    );
  });

  afterAll(() => {
    appServer?.kill();
    term.kill();
  });

  it('npm start opens the TUI; /mcp shows the same-named registrations with their environments', async () => {
    // `npm start` type-checks first (prestart: tsc -b), then opens the TUI.
    await waitForPane('main', settled, 'the first /mcp view to settle', 100_000);
    send('main', '/mcp');
    const pane = await waitForPane(
      'main',
      (p) => p.includes('› /mcp\n/mcp\n') && settled(p),
      'the /mcp view',
    );
    const view = pane.slice(pane.lastIndexOf('› /mcp\n/mcp\n'));
    expect(view.split('\n').slice(2, 13)).toEqual([
      'thread-wide',
      '  • everything: connected (15 tools, 1492 tokens)',
      '  • shared: connected (9 tools, 420 tokens)',
      'environment sandbox (exec)',
      '  • shared@sandbox: connected (9 tools, 456 tokens)',
      'environment buildbox (exec)',
      '  • broken@buildbox: failed',
      '  • shared@buildbox: connected (2 tools, 97 tokens)',
      'all tools (no view): 35 tools, 2465 tokens with tool search off, 461 with it on; search is off',
      'Use /mcp verbose for tools, resources and failure causes.',
      '›',
    ]);
  }, 150_000);

  it('/call … --environment sandbox shows the sandbox registration’s result', async () => {
    send('main', '/call shared echo {"message":"hi"} --environment sandbox');
    const pane = await waitForPane(
      'main',
      (p) => p.includes('shared-sandbox: hi'),
      'the call result',
    );
    expect(pane).toMatch(
      /• Called shared@sandbox\.echo\(\{"message":"hi"\}\)\n {2}└ completed in \d+(\.\d)? m?s\n {4}shared-sandbox: hi/,
    );
  });

  it('answers an elicitation form from the keyboard', async () => {
    send('main', '/call shared ask {} --environment sandbox');
    await waitForPane('main', (p) => p.includes('shared@sandbox asks for input'), 'the form');
    tmux('send-keys', '-t', 'main', 'Enter');
    await waitForPane('main', (p) => p.includes('! Answer is required'), 'the validation message');
    tmux('send-keys', '-t', 'main', '-l', 'forty-two');
    tmux('send-keys', '-t', 'main', 'Down', 'BSpace');
    tmux('send-keys', '-t', 'main', '-l', '9');
    tmux('send-keys', '-t', 'main', 'Enter');
    const pane = await waitForPane('main', (p) => p.includes('"answer":"forty-two"'), 'the answer');
    expect(pane).toContain('{"action":"accept","content":{"answer":"forty-two","count":9}}');
    expect(pane).toContain('• shared@sandbox asked for input: accepted');
  });

  it('/history lists the calls with their environments', async () => {
    send('main', '/history');
    const pane = await waitForPane(
      'main',
      (p) => /\/history \(this session\)\n(.*\n){2}/.test(p),
      'history',
    );
    const rows = pane.slice(pane.lastIndexOf('/history (this session)')).split('\n').slice(1, 3);
    expect(rows[0]).toMatch(/^ {2}\d\d:\d\d:\d\d {2}shared@sandbox\.ask {2}completed {2}/);
    expect(rows[1]).toMatch(/^ {2}\d\d:\d\d:\d\d {2}shared@sandbox\.echo {2}completed {2}/);
  });

  it('/quit leaves with exit code 0', async () => {
    send('main', '/quit');
    await waitForPane('main', (p) => p.includes('[exited 0]'), 'the exit');
  });

  it('renders every view in a 60-column terminal without lines the terminal had to wrap', async () => {
    await waitForPane('narrow', settled, 'the /mcp view');
    send('narrow', '/mcp verbose');
    await waitForPane('narrow', (p) => p.includes('Resource templates: Dynamic Text'), 'verbose');
    send(
      'narrow',
      '/call shared echo {"message":"a long message that will not fit on one line of sixty columns"}',
    );
    await waitForPane('narrow', (p) => /shared-local: a long message/.test(p), 'the call');
    send('narrow', '/mcp login shared --environment buildbox');
    await waitForPane('narrow', (p) => p.includes('• Login shared@buildbox failed'), 'login');
    send('narrow', '/call shared ask {} --environment sandbox');
    await waitForPane('narrow', (p) => p.includes('Enter submit'), 'the form');
    tmux('send-keys', '-t', 'narrow', 'Enter');
    await waitForPane(
      'narrow',
      (p) => p.includes('! Answer is required'),
      'the validation message',
    );
    const wide = capture('narrow', true)
      .split('\n')
      .filter((l) => displayWidth(l) > 60);
    expect(wide).toEqual([]);
    tmux('send-keys', '-t', 'narrow', 'Escape');
    await waitForPane('narrow', (p) => p.includes('asked for input: cancelled'), 'the cancel');
    send('narrow', '/history');
    await waitForPane('narrow', (p) => p.includes('/history (this session)'), 'history');
    expect(
      capture('narrow', true)
        .split('\n')
        .filter((l) => displayWidth(l) > 60),
    ).toEqual([]);
  });

  it('--remote runs the same TUI on a WebSocket app-server', async () => {
    let pane = await waitForPane('remote', settled, 'the remote /mcp view');
    expect(pane.split('\n')[0]).toBe(`mcprt · ${remoteUrl} · home ${REPO_ROOT}/demo`);
    send('remote', '/call shared echo {"message":"over ws"} --environment buildbox');
    pane = await waitForPane('remote', (p) => p.includes('shared-buildbox: over ws'), 'the call');
    expect(pane).toContain('• Called shared@buildbox.echo({"message":"over ws"})');
    send('remote', '/quit');
    await waitForPane('remote', (p) => p.includes('[exited 0]'), 'the exit');
  });

  it('/mcp login --environment completes by pasting the redirect URL; /mcp logout --environment', async () => {
    const as: AuthServer = await startAuthServer();
    const rsA: ProtectedServer = await startProtectedServer(as, { name: 'shared-a' });
    const rsB: ProtectedServer = await startProtectedServer(as, { name: 'shared-b' });
    try {
      const home = makeHome(
        [
          'mcp_oauth_credentials_store = "file"',
          directEnvironment('a'),
          directEnvironment('b'),
          httpServerTable('environments.a.mcp_servers.shared', rsA.url),
          httpServerTable('environments.b.mcp_servers.shared', rsB.url),
        ].join('\n'),
      );
      session('login', 60, `node packages/cli/dist/main.js --home ${home}`);
      await waitForPane(
        'login',
        (p) => p.includes('shared@a: authentication required') && p.includes('shared@b: auth'),
        'both to need a login',
      );
      send('login', '/mcp login shared --environment a');
      const pane = await waitForPane(
        'login',
        (p) => p.includes('open this URL:') && p.includes('press Enter'),
        'the URL',
      );
      // What a person copies from the screen: the 4-space lines right under the cell, joined.
      const below = pane.slice(pane.indexOf('open this URL:\n') + 'open this URL:\n'.length);
      const rows = below.split('\n');
      const url = rows
        .slice(
          0,
          rows.findIndex((l) => !l.startsWith('    ')),
        )
        .map((l) => l.trim())
        .join('');
      expect(url.startsWith(`${as.issuer}/`)).toBe(true);
      const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
      expect(below.replace(/\n {2}/g, ' ')).toContain(
        `paste the address it lands on (${redirectUri}?…; the page may not load) here and press Enter.`,
      );
      // The browser is on another machine: follow its redirects headlessly, never loading the
      // loopback callback, and paste the address it ends on into the TUI.
      const redirected = await authorize(url, redirectUri);
      send('login', redirected);
      const done = await waitForPane(
        'login',
        (p) => p.includes('• Logged in to shared@a'),
        'login',
      );
      expect(done.replace(/\n {4}/g, ' ')).toContain(
        '└ Redirect URL accepted for shared@a; finishing the login…',
      );
      expect(done).not.toContain(new URL(redirected).searchParams.get('code')!);
      send('login', '/mcp');
      const after = await waitForPane(
        'login',
        (p) => p.lastIndexOf('  • shared@a: connected') > p.lastIndexOf('› /mcp'),
        'shared@a to connect',
      );
      expect(after.slice(after.lastIndexOf('› /mcp'))).toContain(
        '  • shared@b: authentication required',
      );

      send('login', '/mcp logout shared --environment a');
      const out = await waitForPane(
        'login',
        (p) => p.includes("Removed OAuth credentials for 'shared@a'."),
        'the logout',
      );
      expect(out).toContain(
        "• Logged out of shared@a\n    Removed OAuth credentials for 'shared@a'.",
      );
      send('login', '/mcp');
      await waitForPane(
        'login',
        (p) =>
          p.lastIndexOf('  • shared@a: authentication required') > p.lastIndexOf('› /mcp') &&
          p.lastIndexOf('  • shared@b: authentication required') > p.lastIndexOf('› /mcp'),
        'shared@a to need a login again',
      );
      // The only credentials were shared@a's: the file is gone with them.
      expect(existsSync(join(home, '.credentials.json'))).toBe(false);
      // 60 columns: the login cell, the pasted URL and the answers needed no terminal wrapping.
      expect(
        capture('login', true)
          .split('\n')
          .filter((l) => displayWidth(l) > 60),
      ).toEqual([]);
    } finally {
      await Promise.all([rsA.stop(), rsB.stop(), as.stop()]);
    }
  }, 90_000);

  it('prints the status view and exits 0 on a terminal under CI', async () => {
    const pane = await waitForPane('ci', (p) => p.includes('[exited 0]'), 'the status view');
    expect(pane).toContain('environment sandbox (exec)\n  • shared@sandbox: connected (9 tools)');
    expect(pane).not.toContain('›');
  });
});
