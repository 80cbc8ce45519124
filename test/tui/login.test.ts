/**
 * `/mcp login <name> --environment <id>` in the TUI, against real authorization servers
 * (oidc-provider) guarding two same-named HTTP servers in two environments: the cell shows the
 * authorization URL whole (wrapped at 60 columns), the test plays the browser up to the
 * runtime's loopback callback, the cell reports success, and only that registration connects.
 * Errors (unknown name, unknown environment, not an HTTP server) are reported inline, and no
 * token value ever reaches the screen.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuthServer } from '../fixtures/auth/authServer.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import { directEnvironment, httpServerTable, secretValues } from '../auth/helpers.js';
import { echoServer } from '../helpers/fixtures.js';
import type { TuiUnderTest } from './harness.js';
import { startTui } from './harness.js';
import { expectFits } from './render.js';

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
    const shown = frame
      .slice(frame.indexOf('open this URL:\n') + 'open this URL:\n'.length)
      .split('\n')
      .filter((l) => l.startsWith('    '))
      .map((l) => l.trim())
      .join('');
    expect(shown.startsWith(url!)).toBe(true);
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

  it('says inline that logout is not available in this build (no mcpServer/oauth/logout)', async () => {
    await tui.run('/mcp logout shared --environment a');
    const frame = await tui.waitForFrame((f) => f.includes('• Logout shared@a\n'), 'logout');
    expect(frame).toContain('• Logout shared@a\n    OAuth logout is not available in this build');
  });
});
