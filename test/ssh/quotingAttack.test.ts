// Quoting against injection, through a real sshd: commands, arguments, cwd and forwarded
// environment values made of shell metacharacters reach the remote program exactly, and no
// command hidden in them ever runs (each one would create a marker file). Environment ids and
// server names never reach a remote command line; config refuses the dangerous ones by name, and
// the characters it allows work end to end over ssh.
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { Session, SshEnvironmentConfig } from '@mcprt/runtime';
import { loadConfig } from '@mcprt/runtime';

import { SshEnvironment } from '../../packages/runtime/src/environments/ssh.js';
import type { StdioLaunchSpec } from '../../packages/runtime/src/environments/types.js';
import { echoServer, NODE, q, tempDir, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';
import { PRINT_ARGV_ENV, runThrough } from './helpers.js';

const load = useRuntimes();
let sshd: Sshd;
let home: string;
/** Every injected command would create a file here; it must stay empty. */
let markers: string;
const open: SshEnvironment[] = [];

beforeAll(async () => {
  home = tempDir('mcprt-ssh-attack-home-');
  markers = tempDir('mcprt-ssh-markers-');
  sshd = await Sshd.start([{ home }]);
});
afterAll(async () => {
  await sshd.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
  // No injected command ran, in any test.
  expect(readdirSync(markers)).toEqual([]);
  expect(readdirSync(home).filter((n) => n.startsWith('pwned'))).toEqual([]);
});

function environment(): SshEnvironment {
  const config: SshEnvironmentConfig = {
    id: 'box',
    type: 'ssh',
    host: '127.0.0.1',
    user: sshd.user,
    port: sshd.ports[0]!,
    identityFile: sshd.clientKey,
    sshOptions: sshd.sshOptions,
    cwd: null,
    description: null,
    location: { file: 'test', line: 1, column: 1, keyPath: 'environments.box' },
  };
  const env = new SshEnvironment(config);
  open.push(env);
  return env;
}

/** Values that would run `touch <markers>/<tag>` if any shell evaluated them. */
function attacks(tag: string): string[] {
  const m = join(markers, tag);
  return [
    `; touch ${m}-semi`,
    `x | touch ${m}-pipe`,
    `x && touch ${m}-and`,
    `x || touch ${m}-or`,
    `$(touch ${m}-subst)`,
    `\`touch ${m}-backtick\``,
    `'; touch ${m}-squote; '`,
    `"; touch ${m}-dquote; "`,
    `\\'; touch ${m}-bsquote #`,
    `\\`,
    `x\ntouch ${m}-newline\n`,
    `\ntouch ${m}-leading-newline`,
    `x\r\ntouch ${m}-crlf`,
    `'\ntouch ${m}-quote-newline\n'`,
    `*`,
    `${markers}/*`,
    `-oProxyCommand=touch ${m}-proxy`,
    `--`,
    `-`,
    `~`,
    `~/x`,
    `~root`,
    `$HOME`,
    `\${HOME}`,
    `$'\\x41'`,
    `x & touch ${m}-bg`,
    `x > ${m}-redirect`,
    `< /etc/passwd`,
    `{ touch ${m}-brace; }`,
    `eval touch ${m}-eval`,
    `!!`,
    `# comment`,
    ``,
    ` `,
    `\t`,
  ];
}

interface Printed {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

async function printed(spec: StdioLaunchSpec): Promise<Printed> {
  const out = await runThrough(environment(), spec);
  expect(out.spawnError).toBeNull();
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as Printed;
}

describe('ssh quoting against injection', () => {
  it('passes arguments made of shell metacharacters to the remote program exactly', async () => {
    const args = attacks('arg');
    const got = await printed({
      command: NODE,
      args: [PRINT_ARGV_ENV, ...args],
      env: {},
      cwd: null,
    });
    expect(got.argv).toEqual(args);
  });

  it('passes forwarded environment values made of shell metacharacters exactly', async () => {
    const values = attacks('env');
    const vars = Object.fromEntries(values.map((v, i) => [`MCPRT_ATTACK_${i}`, v]));
    // Names that are not shell identifiers go through `env NAME=value`.
    const odd = Object.fromEntries(values.map((v, i) => [`mcprt-attack.${i}`, v]));
    const got = await printed({
      command: NODE,
      args: [PRINT_ARGV_ENV],
      env: { ...vars, ...odd },
      cwd: null,
    });
    for (const [name, value] of Object.entries({ ...vars, ...odd })) {
      expect(got.env[name], name).toBe(value);
    }
  });

  it('passes environment names made of shell metacharacters as names, never as commands', async () => {
    const m = join(markers, 'name');
    const names = [
      `X;touch ${m}-semi`,
      `X$(touch ${m}-subst)`,
      `X\`touch ${m}-backtick\``,
      `X'touch ${m}-squote'`,
      `X|touch ${m}-pipe`,
      `-oProxyCommand`,
    ];
    const got = await printed({
      command: NODE,
      args: [PRINT_ARGV_ENV],
      env: Object.fromEntries(names.map((n) => [n, `value of ${n}`])),
      cwd: null,
    });
    for (const name of names) expect(got.env[name], name).toBe(`value of ${name}`);
  });

  it('changes to a cwd whose name is made of shell metacharacters', async () => {
    const base = tempDir('mcprt-attack-cwd-');
    const m = join(markers, 'cwd');
    const names = [
      `a; touch ${m.replaceAll('/', '_')}-semi`,
      `$(touch x)`,
      `\`touch x\``,
      `'q' "d" \\ *`,
      `line\nbreak`,
      `-oProxyCommand=touch x`,
      `~`,
    ];
    for (const name of names) {
      const cwd = join(base, name);
      mkdirSync(cwd);
      const got = await printed({ command: NODE, args: [PRINT_ARGV_ENV], env: {}, cwd });
      expect(got.cwd).toBe(cwd);
    }
    // Nothing was created beside the directories made here (a `touch x` would land in a cwd).
    expect(readdirSync(base).sort()).toEqual([...names].sort());
    for (const name of names) expect(readdirSync(join(base, name))).toEqual([]);
  });

  it('runs a command whose path is made of shell metacharacters, with its arguments intact', async () => {
    // Names cannot hold `/`: an injected `touch` would land in the remote HOME, checked below.
    const dir = join(tempDir('mcprt-attack-cmd-'), `bin; touch pwned-cmd $(id) 'q'`);
    mkdirSync(dir);
    const command = join(dir, `node | touch pwned-cmd-pipe \`id\``);
    symlinkSync(NODE, command);
    const args = attacks('cmd-arg');
    const got = await printed({ command, args: [PRINT_ARGV_ENV, ...args], env: {}, cwd: null });
    expect(got.argv).toEqual(args);
  });

  it('runs a command named like an option as that program, found through a forwarded PATH', async () => {
    const dir = tempDir('mcprt-attack-path-');
    const name = '-oProxyCommand touch pwned-dash-cmd';
    const script = join(dir, name);
    writeFileSync(script, `#!/bin/sh\nexec ${q(NODE)} ${q(PRINT_ARGV_ENV)} "$@"\n`);
    chmodSync(script, 0o755);
    const args = attacks('dash-arg');
    for (const env of [
      { PATH: `${dir}:/usr/bin:/bin` },
      // With a name that is not a shell identifier, the launch goes through `env NAME=value`.
      { PATH: `${dir}:/usr/bin:/bin`, 'odd-name': 'x' },
    ]) {
      const got = await printed({ command: name, args, env, cwd: null });
      expect(got.argv).toEqual(args);
    }
  });
  it('runs a command whose path holds = as that program, also beside non-identifier names', async () => {
    // `env NAME=value … a=b/prog` would take the path for one more assignment. (node itself, so
    // no shell in between drops the names that are not identifiers.)
    const dir = join(tempDir('mcprt-attack-eq-'), 'a=b');
    mkdirSync(dir);
    const command = join(dir, 'node=1');
    symlinkSync(NODE, command);
    const args = attacks('eq-arg');
    for (const env of [{}, { MCPRT_PLAIN: 'p' }, { 'odd-name': 'x', MCPRT_PLAIN: 'p' }]) {
      const got = await printed({ command, args: [PRINT_ARGV_ENV, ...args], env, cwd: null });
      expect(got.argv, JSON.stringify(env)).toEqual(args);
      for (const [name, value] of Object.entries(env)) expect(got.env[name], name).toBe(value);
    }
    // Found through a forwarded PATH, and named like an option too.
    symlinkSync(NODE, join(dir, '-x=y'));
    const PATH = `${dir}:/usr/bin:/bin`;
    for (const env of [{ PATH }, { PATH, 'o-n': 'x' }]) {
      const got = await printed({
        command: '-x=y',
        args: [PRINT_ARGV_ENV, ...args],
        env,
        cwd: null,
      });
      expect(got.argv, JSON.stringify(env)).toEqual(args);
      for (const [name, value] of Object.entries(env)) expect(got.env[name], name).toBe(value);
    }
  });

  it('never runs anything injected through a command named -oProxyCommand=touch x', async () => {
    const out = await runThrough(environment(), {
      command: '-oProxyCommand=touch pwned-dash-eq',
      args: attacks('dash-eq-arg'),
      env: {},
      cwd: null,
    });
    // It cannot be started (bash reads it as an option of exec, dash finds no such program), and
    // the markers checked after each test show nothing ran.
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe('');
  });
});

describe('environment ids and server names', () => {
  // Real strings (TOML keys are written with JSON quoting, so each arrives as written here).
  const dangerous = [
    'a;b',
    'a|b',
    'a&&b',
    '$(touch x)',
    '`id`',
    "a'b",
    'a"b',
    'a\\b',
    'a\nb',
    'a*',
    'a b',
    '~a',
    '-oProxyCommand=touch x',
    'a/b',
  ];

  it('refuses environment ids made of shell metacharacters in config, naming each', () => {
    const dir = tempDir('mcprt-attack-config-');
    for (const id of dangerous) {
      const config = loadConfig({
        file: join(dir, 'config.toml'),
        text: [
          `[environments.${q(id)}]`,
          'type = "ssh"',
          'host = "127.0.0.1"',
          `[environments.${q(id)}.mcp_servers.srv]`,
          'command = "x"',
          '',
        ].join('\n'),
      });
      expect(config.environments, id).toEqual([]);
      expect(config.servers, id).toEqual([]);
      expect(config.invalidEnvironments.map((e) => e.id)).toEqual([id]);
      expect(config.invalidEnvironments[0]?.error).toContain(
        `environment id \`${id}\` must contain only ASCII letters, numbers, '-' or '_'`,
      );
      // Its server fails too, naming the environment.
      expect(config.invalidServers.map((s) => s.error)).toEqual([
        expect.stringContaining(`environment \`${id}\` is invalid`),
      ]);
    }
  });

  it('refuses server names made of shell metacharacters in an ssh environment, naming each', () => {
    const dir = tempDir('mcprt-attack-config-');
    for (const name of dangerous) {
      const config = loadConfig({
        file: join(dir, 'config.toml'),
        text: [
          '[environments.box]',
          'type = "ssh"',
          'host = "127.0.0.1"',
          `[environments.box.mcp_servers.${q(name)}]`,
          'command = "x"',
          '',
        ].join('\n'),
      });
      expect(config.servers, name).toEqual([]);
      expect(config.invalidServers.map((s) => s.scope)).toEqual([{ environmentId: 'box', name }]);
      expect(config.invalidServers[0]?.error).toContain(
        `Invalid MCP server name '${name}': must match pattern ^[a-zA-Z0-9_-]+$`,
      );
    }
  });

  it('runs a server whose name and environment id use every allowed character over ssh', async () => {
    const envId = 'Ssh-box_09';
    const server = 'Echo-srv_09';
    const runtime = load(
      sshd.environmentToml(envId, 0) +
        echoServer(`environments.${envId}.mcp_servers.${server}`, 'allowed-names'),
    );
    const session: Session = runtime.startSession({
      threadId: 'thread-attack',
      cwd: tempDir(),
      environments: [{ environmentId: envId, cwd: '/' }],
    });
    const summary = await session.ready();
    expect(summary.failed).toEqual([]);
    expect(summary.ready).toEqual([{ environmentId: envId, name: server }]);
    const who = JSON.parse(
      text(await session.callTool({ server, tool: 'whoami', arguments: {}, environmentId: envId })),
    ) as { name: string };
    expect(who.name).toBe('allowed-names');
    expect(
      text(
        await session.callTool({
          server,
          tool: 'env',
          arguments: { key: 'HOME' },
          environmentId: envId,
        }),
      ),
    ).toBe(home);
  });
});
