/**
 * Finding 5 of issue #14: what the `mcprt` CLI prints is sanitised like the TUI's screen. A
 * server's stderr, error texts and tool results reach a terminal through `mcprt status` and
 * `mcprt call`; terminal escapes in them (an OSC 52 clipboard write, cursor movement and screen
 * clearing, a window-title change, 8-bit C1 controls) must never reach the terminal, while the
 * readable text around them stays.
 */

import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { truncate, wrap } from '../../packages/tui/src/text/fit.js';
import { arr, ECHO_SERVER, makeHome, NODE, q, REPO_ROOT } from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';

const HOSTILE =
  'before\u001b]52;c;ZWNobyBwd25lZA==\u0007clip\u001b[2J\u001b[Hcleared\u001b]0;pwned title\u001b\\' +
  'titled\u009b31mred\u001b[31mcsi\rreturn\u0008bs after';

function mcprt(home: string, ...args: string[]) {
  return spawnSync(NODE, [CLI, '--home', home, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('the CLI never prints terminal escapes a server sent', () => {
  it('mcprt status: a failed server’s stderr and error are shown without escapes', () => {
    const home = makeHome(
      `[mcp_servers.evil]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--stderr', HOSTILE, '--exit-code', '3'])}\n`,
    );
    const r = mcprt(home, 'status');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('evil: failed');
    expect(r.stdout).not.toMatch(CONTROL);
    // The readable parts remain, in order.
    expect(r.stdout).toMatch(/before.*clip.*cleared.*titled.*red.*csi.*return.*bs after/);
    expect(r.stdout).not.toContain('pwned title');
    expect(r.stdout).not.toContain('ZWNobyBwd25lZA');
  });

  it('mcprt call: a tool result with escapes is printed without them', () => {
    const home = makeHome(
      `[mcp_servers.echo]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--name', 'e'])}\n`,
    );
    const r = mcprt(home, 'call', 'echo', 'echo', '--args', JSON.stringify({ message: HOSTILE }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/before.*clip.*cleared.*titled.*red.*csi.*return.*bs after/);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
  });

  // Issue #33, finding 5: bidi controls and invisible format characters cannot reorder or hide
  // what the CLI shows.
  const SPOOF = 'evil\u202Egnp.exe \u2067x\u2069 hid\u200bden\ufeff';
  const FORMAT = /[\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

  it('mcprt status: a failed server’s stderr is shown without bidi or invisible characters', () => {
    const home = makeHome(
      `[mcp_servers.spoof]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--stderr', SPOOF, '--exit-code', '3'])}\n`,
    );
    const r = mcprt(home, 'status');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('spoof: failed');
    expect(r.stdout).toContain('evil?gnp.exe ?x? hid?den?');
    expect(r.stdout).not.toMatch(FORMAT);
  });

  it('mcprt tools and mcprt call: tool names and results with U+202E are shown without it', () => {
    const home = makeHome(
      `[mcp_servers.echo]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--name', 'e\u202Eman', '--tools', 'evil\u202Egnp.exe'])}\n`,
    );
    const tools = mcprt(home, 'tools');
    expect(tools.status, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('evil?gnp.exe');
    expect(tools.stdout).not.toMatch(FORMAT);
    const call = mcprt(home, 'call', 'echo', 'echo', '--args', JSON.stringify({ message: SPOOF }));
    expect(call.status, call.stderr).toBe(0);
    expect(call.stdout).toContain('e?man: evil?gnp.exe ?x? hid?den?');
    expect(call.stdout).not.toMatch(FORMAT);
    expect(call.stderr).not.toMatch(FORMAT);
  });

  it('the TUI fits server text with the same sanitiser', () => {
    const lines = [...wrap(HOSTILE, 200), truncate(HOSTILE, 200)];
    for (const line of lines) {
      expect(line).not.toMatch(CONTROL);
      expect(line).not.toContain('pwned title');
    }
    expect(lines.join(' ')).toMatch(/before.*clip.*cleared.*titled.*red.*csi/);
  });
});
