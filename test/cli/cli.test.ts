// The `mcprt` CLI: config round-trips that keep comments, `call` against the published
// everything server, usage errors with exit code 2, and the bundled demo (`npm start`'s job).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { run } from '../../packages/cli/src/main.js';
import { capture, mcprt } from '../helpers/cliRun.js';
import {
  arr,
  echoServer,
  EVERYTHING_SERVER,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  tempDir,
} from '../helpers/fixtures.js';

const ORIGINAL = `# My servers — keep this comment
model = "ignored-by-mcprt" # a Codex key

[mcp_servers.docs] # inline comment
command = "docs-server"
args = ["--port", "0"]   # spacing kept

# environments
[environments.box]
type = "exec"
program = "docker"
args = ["exec", "-i", "box"]
`;

describe('mcprt mcp add/list/get/remove', () => {
  it('round-trips add → list → get → remove and preserves comments byte for byte', async () => {
    const home = makeHome(ORIGINAL);
    const file = join(home, 'config.toml');

    let r = await mcprt(
      home,
      'mcp',
      'add',
      'tools',
      '--env',
      'API_KEY=s3cret',
      '--',
      'node',
      'server.js',
      '--flag',
    );
    expect(r).toMatchObject({ code: 0, stdout: "Added global MCP server 'tools'.\n" });
    r = await mcprt(
      home,
      'mcp',
      'add',
      'web',
      '--environment',
      'box',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--bearer-token-env-var',
      'WEB_TOKEN',
    );
    expect(r).toMatchObject({ code: 0, stdout: "Added MCP server 'web' to environment 'box'.\n" });
    expect(readFileSync(file, 'utf8').startsWith(ORIGINAL)).toBe(true);

    r = await mcprt(home, 'mcp', 'list', '--json');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as {
      name: string;
      environmentId: string | null;
      transport: Record<string, unknown>;
    }[];
    expect(listed.map((s) => `${s.name}@${s.environmentId}`)).toEqual([
      'docs@null',
      'tools@null',
      'web@box',
    ]);
    expect(listed[1]!.transport).toMatchObject({
      command: 'node',
      args: ['server.js', '--flag'],
      env: { API_KEY: '*****' },
    });
    expect(r.stdout).not.toContain('s3cret');

    r = await mcprt(home, 'mcp', 'list');
    expect(r.stdout).toMatch(/^tools\s+-\s+local\s+node\s+server\.js --flag\s+API_KEY=\*\*\*\*\*/m);
    expect(r.stdout).toMatch(
      /^web\s+box\s+box\s+http:\/\/127\.0\.0\.1:9\/mcp\s+WEB_TOKEN\s+enabled$/m,
    );

    r = await mcprt(home, 'mcp', 'get', 'web', '--environment', 'box', '--json');
    expect(JSON.parse(r.stdout)).toMatchObject({
      name: 'web',
      environmentId: 'box',
      transport: { url: 'http://127.0.0.1:9/mcp' },
    });
    r = await mcprt(home, 'mcp', 'get', 'web');
    expect(r.stdout).toContain('web@box');
    r = await mcprt(home, 'mcp', 'get', 'web', '--environment', 'nowhere');
    expect(r.code).toBe(1);
    // `model` is a Codex key: outside --codex-home it is unknown to mcprt, so it warns (with its position).
    expect(r.stderr).toBe(
      `warning: ${file}:2:1: model: unknown key \`model\`\nNo MCP server named 'web' found in environment \`nowhere\`.\n`,
    );

    expect((await mcprt(home, 'mcp', 'remove', 'web', '--environment', 'box')).stdout).toBe(
      "Removed MCP server 'web' from environment 'box'.\n",
    );
    expect((await mcprt(home, 'mcp', 'remove', 'tools')).stdout).toBe(
      "Removed global MCP server 'tools'.\n",
    );
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('refuses bad edits with a clear message and leaves the file untouched', async () => {
    const home = makeHome(ORIGINAL);
    const file = join(home, 'config.toml');
    const cases: [string[], number, RegExp][] = [
      [['mcp', 'add', 'docs', '--', 'x'], 1, /MCP server `docs` already exists/],
      [
        ['mcp', 'add', 'bad.name', '--', 'x'],
        2,
        /Invalid MCP server name 'bad\.name': must match pattern \^\[a-zA-Z0-9_-\]\+\$/,
      ],
      [['mcp', 'add', 'x', '--environment', 'mars', '--', 'x'], 1, /unknown environment id `mars`/],
      [['mcp', 'add', 'x'], 2, /give exactly one of --url URL or -- CMD ARGS/],
      [['mcp', 'add', 'x', '--url', 'http://h', '--', 'cmd'], 2, /give exactly one of/],
      [
        ['mcp', 'add', 'x', '--env', 'NOEQUALS', '--', 'cmd'],
        2,
        /--env expects KEY=VALUE, got 'NOEQUALS'/,
      ],
      [['mcp', 'remove', 'ghost'], 1, /No MCP server named 'ghost' found\./],
      [['mcp', 'frobnicate'], 2, /mcp: unknown subcommand 'frobnicate'/],
    ];
    for (const [argv, code, message] of cases) {
      const r = await mcprt(home, ...argv);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(r.stderr, argv.join(' ')).toMatch(message);
      expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
    }
  });

  it('lists an empty home with Codex-style guidance', async () => {
    const r = await mcprt(tempDir(), 'mcp', 'list');
    expect(r).toMatchObject({
      code: 0,
      stdout: 'No MCP servers configured yet. Try `mcprt mcp add my-tool -- my-command`.\n',
    });
  });

  it('reports bad TOML with file:line:column and exit code 1', async () => {
    const home = makeHome('[mcp_servers.a]\ncommand = "x"\nargs = [1,,]\n');
    const r = await mcprt(home, 'mcp', 'list');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(home, 'config.toml')}:3:`);
  });
});

describe('mcprt call', () => {
  it("calls @modelcontextprotocol/server-everything's echo", async () => {
    const home = makeHome(
      `[mcp_servers.everything]\ncommand = ${q(NODE)}\nargs = ${arr([EVERYTHING_SERVER, 'stdio'])}\n`,
    );
    const r = await mcprt(
      home,
      'call',
      'everything',
      'echo',
      '--args',
      '{"message":"hello from mcprt"}',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { content: { type: string; text: string }[] };
    expect(result.content[0]?.text).toContain('hello from mcprt');
  });

  it('selects by --environment and starts only the target server', async () => {
    const marker = join(tempDir(), 'started');
    const home = makeHome(
      echoServer('mcp_servers.shared', 'tw') +
        `[mcp_servers.never]\ncommand = ${q(NODE)}\nargs = ${arr(['-e', `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`])}\n` +
        `[environments.box]\ntype = "exec"\nprogram = "sh"\nargs = ["-c", "exec \\"$@\\"", "sh"]\n` +
        echoServer('environments.box.mcp_servers.shared', 'in-box'),
    );
    const r = await mcprt(
      home,
      'call',
      'shared',
      'echo',
      '--environment',
      'box',
      '--args',
      '{"message":"m"}',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).content[0].text).toBe('in-box: m');
    expect(existsSync(marker)).toBe(false);
  });

  it('gives usage errors (exit 2) and routing errors (exit 1) clearly', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e'));
    expect(await mcprt(home, 'call', 'e', 'echo', '--args', '{not json')).toMatchObject({
      code: 2,
    });
    expect((await mcprt(home, 'call', 'e', 'echo', '--args', '[1]')).stderr).toBe(
      'mcprt: call: --args must be a JSON object\n',
    );
    expect(await mcprt(home, 'call', 'e', 'echo', '--environment', 'mars')).toMatchObject({
      code: 1,
      stderr: 'mcprt: unknown environment id `mars`\n',
    });
    expect(await mcprt(home, 'call', 'nope', 'echo')).toMatchObject({
      code: 1,
      stderr: "mcprt: unknown MCP server 'nope'\n",
    });
  });
});

describe('--codex-home', () => {
  it('reads a Codex config.toml in place, unchanged and without warnings', async () => {
    const codexHome = tempDir('codex-home-');
    const text = `model = "gpt-5-codex"\napproval_policy = "on-request"\nsandbox_mode = "workspace-write"\n\n[features]\nweb_search_request = true\n\n[projects."/work/x"]\ntrust_level = "trusted"\n\n${echoServer('mcp_servers.codex_echo', 'ce', 'startup_timeout_sec = 20\ntool_timeout_sec = 60')}`;
    writeFileSync(join(codexHome, 'config.toml'), text);
    const io = capture();
    const code = await run(
      ['--codex-home', codexHome, 'call', 'codex_echo', 'echo', '--args', '{"message":"x"}'],
      io,
    );
    expect(io.stderr()).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(io.stdout()).content[0].text).toBe('ce: x');
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toBe(text);
  });
});

describe('npm start (the bundled demo)', () => {
  it('prints every registration with its environment and exits 0 without a TTY', () => {
    const r = spawnSync(NODE, [join(REPO_ROOT, 'packages/cli/dist/main.js'), '--home', 'demo'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^thread-wide$/m);
    expect(r.stdout).toMatch(/^ {2}• shared: connected \(9 tools\) \[MCP 2025-11-25\]$/m);
    expect(r.stdout).toMatch(/^environment sandbox \(exec\)$/m);
    expect(r.stdout).toMatch(/^ {2}• shared@sandbox: connected \(9 tools\) \[MCP 2025-11-25\]$/m);
    expect(r.stdout).toMatch(/^ {2}• shared@buildbox: connected \(2 tools\) \[MCP 2025-11-25\]$/m);
    expect(r.stdout).toMatch(/^ {2}• broken@buildbox: failed$/m);
    expect(r.stdout).toContain('MCP client for `broken@buildbox` failed to start');
  });
});
