/**
 * `mcprt` and the TUI's command line: the bare command keeps printing the status view without a
 * terminal, every bad `tui`/`--remote`/`--view` input is a usage error (exit 2) that names the
 * problem and starts nothing, and an unknown view is refused before the terminal is taken.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Io } from '../../packages/cli/src/io.js';
import { run } from '../../packages/cli/src/main.js';
import { echoServer, makeHome, tempDir } from '../helpers/fixtures.js';

function capture(isTTY = false): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    isTTY,
    stdout: () => out,
    stderr: () => err,
  };
}

async function mcprt(io: Io & { stdout: () => string; stderr: () => string }, ...argv: string[]) {
  const code = await run(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe('mcprt and the TUI command line', () => {
  it('prints the status view without a terminal (the TUI needs one)', async () => {
    const home = makeHome(echoServer('mcp_servers.shared', 'shared-local'));
    const r = await mcprt(capture(false), '--home', home);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`MCP servers (${join(home, 'config.toml')})`);
    expect(r.stdout).toContain('thread-wide\n  • shared: connected (');
  });

  it('refuses `mcprt tui` without a terminal, naming why', async () => {
    const home = makeHome('');
    const r = await mcprt(capture(false), '--home', home, 'tui');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('mcprt: tui: the terminal UI needs a terminal on stdin and stdout\n');
  });

  it('reports bad --remote and --token-file input before connecting anywhere', async () => {
    const tokenDir = tempDir();
    const empty = join(tokenDir, 'empty.token');
    writeFileSync(empty, '\n');
    const cases: [string[], string][] = [
      [
        ['--remote', 'http://127.0.0.1:4500'],
        "tui: --remote must be ws://HOST:PORT or wss://HOST:PORT, got 'http://127.0.0.1:4500'",
      ],
      [
        ['--remote', 'not a url'],
        "tui: --remote must be ws://HOST:PORT or wss://HOST:PORT, got 'not a url'",
      ],
      [['--token-file', empty], 'tui: --token-file needs --remote'],
      [
        ['--remote', 'ws://127.0.0.1:1', '--token-file', empty],
        `tui: --token-file ${empty} is empty`,
      ],
      [
        ['--remote', 'ws://127.0.0.1:1', '--token-file', join(tokenDir, 'missing')],
        `tui: cannot read --token-file ${join(tokenDir, 'missing')}: ENOENT: no such file or directory, open '${join(tokenDir, 'missing')}'`,
      ],
      [['tui', 'extra'], "tui: unexpected argument 'extra'"],
      [['tui', '--view', ''], 'tui: --view needs a view name'],
      [['tui', '--bogus'], "tui: Unknown option '--bogus'"],
    ];
    for (const [argv, message] of cases) {
      const r = await mcprt(capture(true), ...argv);
      expect({ argv, code: r.code, stdout: r.stdout }).toEqual({ argv, code: 2, stdout: '' });
      expect(r.stderr.startsWith(`mcprt: ${message}`), `${argv.join(' ')}: ${r.stderr}`).toBe(true);
      expect(r.stderr.split('\n').length, 'one line').toBe(2);
    }
  });

  it('refuses an unknown view before taking the terminal (exit 1), naming the defined ones', async () => {
    const home = makeHome(
      echoServer('mcp_servers.shared', 'shared-local') + '[views.review]\ninclude = ["*/*/*"]\n',
    );
    const r = await mcprt(capture(true), '--home', home, 'tui', '--view', 'ops');
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcprt: unknown view `ops` (defined: `review`)\n',
    });
  });
});
