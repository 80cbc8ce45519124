// Issue 35: on a machine without an OS keyring (no D-Bus session), `auto`'s fallback to the
// credentials file is said where credentials are used — `mcprt status` of an HTTP server,
// `mcprt mcp login` — once per home, and never by a command that uses none (`mcprt call` of a
// stdio server with an HTTP server in the config). The built CLI, as a user runs it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { echoServer, makeHome, NODE, q, REPO_ROOT } from '../helpers/fixtures.js';

const CLI = join(REPO_ROOT, 'packages/cli/dist/main.js');
const WARNING = 'the OS keyring is not available';
const NOTICE = '.credentials-store-notice';

/** This process's environment without a D-Bus session (nor an X display to autolaunch one). */
function noKeyringEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['DBUS_SESSION_BUS_ADDRESS'];
  delete env['DISPLAY'];
  return env;
}

function mcprt(home: string, ...argv: string[]) {
  const r = spawnSync(NODE, [CLI, '--home', home, ...argv], {
    env: noKeyringEnv(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const count = (text: string) => text.split(WARNING).length - 1;

function home(): string {
  return makeHome(
    `${echoServer('mcp_servers.echo', 'echo')}[mcp_servers.web]\nurl = ${q('http://127.0.0.1:9/mcp')}\n`,
  );
}

// The fallback exists only where the keyring is the Secret Service (Linux); elsewhere the OS
// keychain answers and nothing is said at all.
describe.runIf(process.platform === 'linux')('the keyring fallback notice', () => {
  it('`mcprt call` of a stdio server prints nothing on stderr, even with an HTTP server configured', () => {
    const dir = home();
    for (let i = 0; i < 2; i++) {
      const r = mcprt(dir, 'call', 'echo', 'echo', '--args', '{"message":"x"}');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ content: [{ type: 'text', text: 'echo: x' }] });
    }
    expect(existsSync(join(dir, NOTICE))).toBe(false);
  });

  it('`mcprt status` says the fallback once per home; later commands do not repeat it', () => {
    const dir = home();
    const first = mcprt(dir, 'status');
    expect(first.code).toBe(0);
    expect(count(first.stderr)).toBe(1);
    expect(first.stderr).toContain(
      `OAuth credentials are stored in ${join(dir, '.credentials.json')} (mode 0600)`,
    );
    expect(existsSync(join(dir, NOTICE))).toBe(true);

    expect(count(mcprt(dir, 'status').stderr)).toBe(0);
    const login = mcprt(dir, 'mcp', 'login', 'web');
    expect(login.code).toBe(1); // nothing listens there
    expect(count(login.stderr)).toBe(0);
    const call = mcprt(dir, 'call', 'echo', 'echo', '--args', '{"message":"x"}');
    expect(call.stderr).toBe('');
  });

  it('`mcprt mcp login` of the HTTP server says it once in a home that was not told yet', () => {
    const dir = home();
    const login = mcprt(dir, 'mcp', 'login', 'web');
    expect(login.code).toBe(1);
    expect(count(login.stderr)).toBe(1);
    expect(login.stderr).toContain(`warning: ${WARNING} (`);
  });
});
