/**
 * `/mcp login <name> --environment <id>` in the TUI, against real authorization servers
 * (oidc-provider) guarding two same-named HTTP servers in two environments: the cell shows the
 * authorization URL whole (wrapped at 60 columns), the test plays the browser up to the
 * runtime's loopback callback, the cell reports success, and only that registration connects.
 * A login also completes by pasting the URL the browser was redirected to (a browser on another
 * machine never reaches the loopback listener); a forged one is refused and the login waits.
 * `/mcp logout --environment` removes that scope's credentials only and the registration needs
 * a login again. Errors (unknown name, unknown environment, not an HTTP server) are reported
 * inline, and no token value ever reaches the screen.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuthServer } from '../fixtures/auth/authServer.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import { credentialStoreKey } from '@mcprt/runtime';
import type { Cell } from '@mcprt/tui';

import {
  directEnvironment,
  httpServerTable,
  readCredentialsFile,
  secretValues,
} from '../auth/helpers.js';
import { echoServer } from '../helpers/fixtures.js';
import type { TuiUnderTest } from './harness.js';
import { startTui } from './harness.js';
import { expectFits, words } from '../../packages/tui/src/testing/render.js';

const COLUMNS = 60;

describe('/mcp login in the TUI', () => {
  let asA: AuthServer;
  let asB: AuthServer;
  let rsA: ProtectedServer;
  let rsB: ProtectedServer;
  let tui: TuiUnderTest;

  beforeAll(async () => {
    asA = await startAuthServer();
    asB = await startAuthServer();
    rsA = await startProtectedServer(asA, { name: 'shared-a' });
    rsB = await startProtectedServer(asB, { name: 'shared-b' });
    tui = await startTui(
      [
        'mcp_oauth_credentials_store = "file"',
        directEnvironment('a'),
        directEnvironment('b'),
        httpServerTable('environments.a.mcp_servers.shared', rsA.url),
        httpServerTable('environments.b.mcp_servers.shared', rsB.url),
        echoServer('mcp_servers.local', 'local'),
      ].join('\n'),
      COLUMNS,
    );
  });

  afterAll(async () => {
    await tui?.close();
    await Promise.all([rsA?.stop(), rsB?.stop(), asA?.stop(), asB?.stop()]);
  });

  it('logs in to one registration of a name; only that one connects', async () => {
    await tui.waitForFrame(
      (f) =>
        f.includes('  • shared@a: authentication required') &&
        f.includes('  • shared@b: authentication required'),
      'both registrations to need a login',
    );
    await tui.run('/mcp login shared --environment a');
    let frame = await tui.waitForFrame(
      (f) => f.includes('waiting for authorization; open this URL:'),
      'the authorization URL',
    );
    const cell = tui.controller.getSnapshot().cells.find((c) => c.kind === 'login');
    const url = cell?.kind === 'login' ? cell.login.authorizationUrl : null;
    expect(url).toEqual(expect.stringContaining(`${asA.issuer}/`));
    // The URL on screen, wrapped under a 4-space indent, is the whole URL.
    expect(authorizationUrlOnScreen(frame, 'shared@a')).toBe(url);
    expectFits(frame, COLUMNS);

    await authorize(url!, new URL(url!).searchParams.get('redirect_uri')!, { deliver: true });
    await tui.waitForFrame((f) => f.includes('• Logged in to shared@a'), 'the login to complete');
    await tui.run('/mcp');
    frame = await tui.waitForFrame(
      (f) => f.lastIndexOf('  • shared@a: connected') > f.lastIndexOf('› /mcp'),
      'shared@a to connect',
    );
    const view = frame.slice(frame.lastIndexOf('› /mcp'));
    expect(view).toContain('  • shared@b: authentication required');
    expect(asB.grants['authorization_code']).toBeUndefined();

    await tui.run('/call shared whoami {} --environment a');
    frame = await tui.waitForFrame((f) => f.includes('shared-a: ok'), 'the call');
    for (const secret of secretValues(tui.home)) expect(frame).not.toContain(secret);
  });

  it('reports unknown names, unknown environments and stdio servers inline', async () => {
    await tui.run('/mcp login nosuch');
    await tui.run('/mcp login shared --environment nowhere');
    await tui.run('/mcp login local');
    const frame = await tui.waitForFrame(
      (f) => f.includes('• Login local failed'),
      'the three errors',
    );
    expect(frame).toContain("• Login nosuch failed\n    Error: unknown MCP server 'nosuch'");
    expect(frame).toContain(
      '• Login shared@nowhere failed\n    Error: unknown environment id `nowhere`',
    );
    expect(frame).toContain(
      '• Login local failed\n    Error: OAuth login is only supported for streamable\n    HTTP servers.',
    );
  });

  it('completes a login by pasting the redirect URL; a forged one is refused and the login waits', async () => {
    await tui.run('/mcp login shared --environment b');
    const frame = await tui.waitForFrame(
      (f) => f.includes('• Login shared@b\n  └ waiting for authorization; open this URL:'),
      'the authorization URL',
    );
    const url = authorizationUrlOnScreen(frame, 'shared@b');
    const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
    expect(frame).toContain('paste the redirect URL for shared@b and press Enter');
    expect(words(frame)).toEqual(
      expect.arrayContaining(
        words(
          `If the browser is on another machine, paste the address it lands on (${redirectUri}?…;`,
        ),
      ),
    );
    expectFits(frame, COLUMNS);
    // The browser is on another machine: it never reaches the loopback listener.
    const redirected = await authorize(url, redirectUri);
    const code = new URL(redirected).searchParams.get('code')!;
    const forged = new URL(redirected);
    forged.searchParams.set('state', 'not-this-login');
    await tui.run(forged.href);
    let after = await tui.waitForFrame((f) => f.includes('Not the redirect URL'), 'the refusal');
    expect(words(after.slice(after.lastIndexOf('› ')))).toEqual(
      expect.arrayContaining(
        words(
          '└ Not the redirect URL of the login of shared@b: it needs the `code` and `state` the browser was sent back with. Paste the whole address again.',
        ),
      ),
    );
    expect(tui.controller.getSnapshot().cells.find(isLoginOf('shared@b'))).toMatchObject({
      login: { state: 'waiting' },
    });
    expect(asB.grants['authorization_code']).toBeUndefined();

    await tui.run(redirected);
    after = await tui.waitForFrame((f) => f.includes('• Logged in to shared@b'), 'the login');
    expect(after.replace(/\n {4}/g, ' ')).toContain(
      '  └ Redirect URL accepted for shared@b; finishing the login…',
    );
    expect(after).not.toContain(code);
    expect(after.replace(/\n {2}/g, '')).toContain('code=…');
    expect(after).not.toContain('paste the redirect URL for');
    expectFits(after, COLUMNS);
    expect(asB.grants['authorization_code']).toBe(1);
    await tui.run('/mcp');
    after = await tui.waitForFrame(
      (f) => f.lastIndexOf('  • shared@b: connected') > f.lastIndexOf('› /mcp'),
      'shared@b to connect',
    );
    expect(after.slice(after.lastIndexOf('› /mcp'))).toContain('  • shared@a: connected');
  });

  it('/mcp logout --environment removes that scope’s credentials only', async () => {
    const keyA = credentialStoreKey({ environmentId: 'a', name: 'shared' }, rsA.url);
    const keyB = credentialStoreKey({ environmentId: 'b', name: 'shared' }, rsB.url);
    expect(Object.keys(readCredentialsFile(tui.home)).sort()).toEqual([keyA, keyB].sort());
    const secrets = secretValues(tui.home);
    await tui.run('/mcp logout shared --environment a');
    let frame = await tui.waitForFrame((f) => f.includes('• Logged out of shared@a'), 'logout');
    expect(frame).toContain(
      "• Logged out of shared@a\n    Removed OAuth credentials for 'shared@a'.",
    );
    expect(Object.keys(readCredentialsFile(tui.home))).toEqual([keyB]);
    await tui.run('/mcp');
    frame = await tui.waitForFrame(
      (f) => f.lastIndexOf('  • shared@a: authentication required') > f.lastIndexOf('› /mcp'),
      'shared@a to need a login again',
    );
    expect(frame.slice(frame.lastIndexOf('› /mcp'))).toContain('  • shared@b: connected');

    await tui.run('/mcp logout shared --environment a');
    frame = await tui.waitForFrame((f) => f.includes('No OAuth credentials stored'), 'logout');
    expect(frame).toContain("• Logout shared@a\n    No OAuth credentials stored for 'shared@a'.");
    for (const secret of secrets) expect(frame).not.toContain(secret);
  });

  it('reports logout errors inline and loses nothing', async () => {
    await tui.run('/mcp logout nosuch');
    await tui.run('/mcp logout shared --environment nowhere');
    await tui.run('/mcp logout local');
    const frame = await tui.waitForFrame(
      (f) => f.includes('• Logout local failed'),
      'the three errors',
    );
    expect(frame).toContain(
      "• Logout nosuch failed\n    Error: No MCP server named 'nosuch' found in\n    configuration.",
    );
    expect(frame).toContain(
      '• Logout shared@nowhere failed\n    Error: unknown environment id `nowhere`',
    );
    expect(frame).toContain(
      '• Logout local failed\n    Error: OAuth logout is only supported for\n    streamable_http transports.',
    );
    expect(Object.keys(readCredentialsFile(tui.home))).toEqual([
      credentialStoreKey({ environmentId: 'b', name: 'shared' }, rsB.url),
    ]);
  });

  it('says a line is not a command when no login waits for a redirect URL', async () => {
    await tui.run('http://127.0.0.1:1/callback?code=abc&state=def');
    const frame = await tui.waitForFrame(
      (f) => f.includes('Commands start with / (try /help).'),
      'the message',
    );
    expect(frame).toContain('› http://127.0.0.1:1/callback?code=abc&state=def');
  });
});

/** The authorization URL as a person copies it: the 4-space lines right under the cell. */
function authorizationUrlOnScreen(frame: string, target: string): string {
  const start = frame.indexOf(`• Login ${target}\n  └ waiting for authorization; open this URL:\n`);
  const lines = frame.slice(start).split('\n').slice(2);
  const end = lines.findIndex((l) => !l.startsWith('    '));
  return lines
    .slice(0, end)
    .map((l) => l.trim())
    .join('');
}

const isLoginOf = (target: string) => (cell: Cell) =>
  cell.kind === 'login' && cell.login.target === target && cell.login.action === 'login';
