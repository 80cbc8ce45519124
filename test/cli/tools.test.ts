// `mcprt tools` and `mcprt status --view` with a real home and real fixture servers (thread-wide
// and in an exec environment): the exact lines of a view's tool list with its tokens, per server
// and in total with tool search off and on, the over-threshold warning, `--environment`, the JSON
// shape, the whole inventory (with a server that failed, and the note past 10,000 tokens), and
// every bad input with its exact message and exit code — starting nothing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HELP } from '../../packages/cli/src/main.js';
import { mcprt } from '../helpers/cliRun.js';
import {
  arr,
  ECHO_SERVER,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';
import { REVIEW_LOOKUP_BAD } from '../helpers/views.js';

const echo = (table: string, name: string, extra: string[] = [], filter = '') =>
  `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--name', name, ...extra])}\n${filter}\n`;

const VIEWS = REVIEW_LOOKUP_BAD;

function home(pidLog = join(tempDir(), 'pids.log')): string {
  return makeHome(
    echo(
      'mcp_servers.docs',
      'docs',
      ['--pid-log', pidLog],
      'enabled_tools = ["echo", "whoami", "fail"]',
    ) +
      shExecEnvironment('a', tempDir()) +
      echo(
        'environments.a.mcp_servers.shared',
        'shared-a',
        [],
        'enabled_tools = ["echo", "whoami", "env"]',
      ) +
      echo('environments.a.mcp_servers.broken', 'broken', ['--exit-code', '3']) +
      VIEWS,
  );
}

const REVIEW_SUMMARY = [
  'view `review`: 4 tools, 175 tokens with tool search off, 461 with it on; search is off',
  'warning: view `review` lists 175 tokens of tool definitions, over its tool_search_threshold_tokens of 50; set tool_search = "auto"',
];

describe('mcprt tools', () => {
  it('lists a view’s tools by server and environment, with tokens, totals and the warning', async () => {
    const r = await mcprt(home(), 'tools', '--view', 'review');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([
      'view `review`: tool_search = "off", tool_search_threshold_tokens = 50',
      '',
      'thread-wide',
      '  docs: 2 tools, 85 tokens',
      '    docs__echo         -/docs/echo      54 tokens',
      '    docs__whoami       -/docs/whoami    31 tokens',
      '',
      'environment a (exec)',
      '  shared@a: 2 tools, 90 tokens',
      '    echo_a             a/shared/echo    55 tokens',
      '    a__shared__whoami  a/shared/whoami  35 tokens',
      '',
      ...REVIEW_SUMMARY,
      '',
    ]);
  });

  it('--environment lists that environment’s tools only; the totals stay the view’s', async () => {
    const r = await mcprt(home(), 'tools', '--view', 'lookup', '--environment', 'a');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([
      'view `lookup`: tool_search = "always", tool_search_threshold_tokens = 10000',
      '',
      'environment a (exec)',
      '  shared@a: 3 tools, 151 tokens',
      '    a__shared__echo    a/shared/echo    58 tokens  always_load',
      '    a__shared__whoami  a/shared/whoami  35 tokens',
      '    a__shared__env     a/shared/env     58 tokens',
      '',
      "environment a: 3 tools, 151 tokens of the view's definitions",
      'view `lookup`: 3 tools, 151 tokens with tool search off, 519 with it on; search is on',
      '',
    ]);
    const review = await mcprt(home(), 'tools', '--view', 'review', '--environment', 'a');
    expect(review.stdout).not.toContain('docs');
    expect(review.stdout).toContain(
      "environment a: 2 tools, 90 tokens of the view's definitions\n" + REVIEW_SUMMARY.join('\n'),
    );
  });

  it('--json: every tool with its path, tokens and whether it is listed, and the view’s cost', async () => {
    const r = await mcprt(home(), 'tools', '--view', 'lookup', '--json');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const tool = (name: string, tokens: number, listed: boolean) => ({
      name: `a__shared__${name}`,
      path: `a/shared/${name}`,
      server: 'shared',
      environmentId: 'a',
      tokens,
      alwaysLoad: listed,
      listed,
    });
    expect(JSON.parse(r.stdout)).toEqual({
      view: 'lookup',
      environmentId: null,
      tools: [tool('echo', 58, true), tool('whoami', 35, false), tool('env', 58, false)],
      notConnected: [],
      cost: {
        view: 'lookup',
        tools: 3,
        searching: true,
        thresholdTokens: 10000,
        allTokens: 151,
        searchTokens: 519,
        listedTokens: 519,
        overThreshold: false,
        servers: [{ server: 'shared', environmentId: 'a', tools: 3, tokens: 151 }],
      },
    });
  });

  it('without a view: the whole inventory, and a server that failed is named, not counted', async () => {
    const r = await mcprt(home(), 'tools');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([
      'all tools (no view)',
      '',
      'thread-wide',
      '  docs: 3 tools, 113 tokens',
      '    docs__echo         -/docs/echo      54 tokens',
      '    docs__whoami       -/docs/whoami    31 tokens',
      '    docs__fail         -/docs/fail      28 tokens',
      '',
      'environment a (exec)',
      '  broken@a: failed (its tools are not counted)',
      '  shared@a: 3 tools, 151 tokens',
      '    a__shared__echo    a/shared/echo    58 tokens',
      '    a__shared__whoami  a/shared/whoami  35 tokens',
      '    a__shared__env     a/shared/env     58 tokens',
      '',
      'all tools (no view): 6 tools, 264 tokens with tool search off, 461 with it on; search is off',
      '',
    ]);
    const json = JSON.parse((await mcprt(home(), 'tools', '--json')).stdout) as {
      notConnected: unknown[];
      cost: { thresholdTokens: unknown };
    };
    expect(json.notConnected).toEqual([
      { server: 'broken', environmentId: 'a', status: 'failed', error: expect.any(String) },
    ]);
    expect(json.cost.thresholdTokens).toBeNull();
  });

  it('suggests a view when the whole inventory is over 10,000 tokens', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `extra_tool_${i}`).join(',');
    const big = makeHome(echo('mcp_servers.big', 'big', ['--tools', many]));
    const r = await mcprt(big, 'tools');
    expect(r.code).toBe(0);
    const total = (
      JSON.parse((await mcprt(big, 'tools', '--json')).stdout) as { cost: { allTokens: number } }
    ).cost.allTokens;
    expect(total).toBeGreaterThan(10_000);
    expect(r.stdout.split('\n').slice(-2)).toEqual([
      `note: the whole inventory lists ${total} tokens of tool definitions, over 10000; define a [views.NAME] with tool_search = "auto" and use it (--view NAME)`,
      '',
    ]);
  });

  it('refuses an unknown or invalid view and an unknown environment (exit 1), starting nothing', async () => {
    const pidLog = join(tempDir(), 'pids.log');
    const h = home(pidLog);
    const cases: [string[], string][] = [
      [['--view', 'ops'], 'mcprt: unknown view `ops` (defined: `review`, `lookup`)\n'],
      [['--environment', 'mars'], 'mcprt: unknown environment id `mars`\n'],
      [['--view', 'review', '--environment', 'mars'], 'mcprt: unknown environment id `mars`\n'],
    ];
    for (const [argv, stderr] of cases) {
      expect(await mcprt(h, 'tools', ...argv)).toEqual({ code: 1, stdout: '', stderr });
    }
    const bad = await mcprt(h, 'tools', '--view', 'bad');
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toMatch(/^mcprt: view `bad` is invalid: .*config\.toml:\d+:\d+: .*\n$/);
    expect(existsSync(pidLog)).toBe(false);
  });

  it('refuses bad usage with exit 2', async () => {
    const cases: [string[], string][] = [
      [['--view', ''], 'mcprt: tools: --view needs a view name\n'],
      [['--environment', ' '], 'mcprt: tools: --environment needs an environment id\n'],
      [['extra'], "mcprt: tools: unexpected argument 'extra'\n"],
    ];
    for (const [argv, stderr] of cases) {
      expect(await mcprt(home(), 'tools', ...argv)).toEqual({ code: 2, stdout: '', stderr });
    }
    const unknown = await mcprt(home(), 'tools', '--bogus');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^mcprt: tools: Unknown option '--bogus'/);
  });

  it('is in the help text and runs as the built executable', () => {
    expect(HELP).toContain('  tools [--view NAME] [--environment <id>] [--json]\n');
    const r = spawnSync(
      NODE,
      [join(REPO_ROOT, 'packages/cli/dist/main.js'), '--home', home(), 'tools', '--view', 'review'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n').slice(-2)).toEqual(REVIEW_SUMMARY);
  });
});

describe('mcprt status --view', () => {
  it('counts each server’s tools within the view and ends with the view’s cost', async () => {
    const h = home();
    const r = await mcprt(h, 'status', '--view', 'review');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([
      `MCP servers (${join(h, 'config.toml')})`,
      '',
      'thread-wide',
      '  • docs: connected (2 tools) [MCP 2025-11-25]',
      '',
      'environment a (exec)',
      '  • shared@a: connected (2 tools) [MCP 2025-11-25]',
      '',
      '1 server outside view `review` not shown',
      ...REVIEW_SUMMARY,
      '',
    ]);
  });

  it('leaves out the servers outside the view, in text and JSON', async () => {
    const h = home();
    const r = await mcprt(h, 'status', '--view', 'lookup');
    expect(r.stdout).not.toContain('docs');
    expect(r.stdout).toContain('  • shared@a: connected (3 tools) [MCP 2025-11-25]\n');
    expect(r.stdout).toContain('2 servers outside view `lookup` not shown\n');
    const json = JSON.parse((await mcprt(h, 'status', '--view', 'review', '--json')).stdout) as {
      name: string;
      environmentId: string | null;
      tools: { name: string; modelName: string }[];
    }[];
    expect(
      json.map((s) => [s.name, s.environmentId, s.tools.map((t) => `${t.name}=${t.modelName}`)]),
    ).toEqual([
      ['docs', null, ['echo=docs__echo', 'whoami=docs__whoami']],
      ['shared', 'a', ['echo=echo_a', 'whoami=a__shared__whoami']],
    ]);
  });

  it('refuses an unknown view (exit 1) and an empty one (exit 2)', async () => {
    expect(await mcprt(home(), 'status', '--view', 'ops')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcprt: unknown view `ops` (defined: `review`, `lookup`)\n',
    });
    expect(await mcprt(home(), 'status', '--view', '')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mcprt: status: --view needs a view name\n',
    });
  });
});
