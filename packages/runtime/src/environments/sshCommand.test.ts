// The ssh command builders: the remote command string, evaluated here by real POSIX shells
// (dash and bash), and the precedence order of ssh options.
import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import type { SshEnvironmentConfig } from '../config/types.js';
import { clientArgs, masterArgs, remoteLaunch, shQuote } from './sshCommand.js';
import { parseRemoteConfigOutput } from './sshRemoteConfig.js';

const PRINT =
  'process.stdout.write(JSON.stringify({argv: process.argv.slice(1), env: process.env, cwd: process.cwd()}))';

function runIn(shell: string, launch: { command: string; stdinPreamble: string | null }) {
  const out = execFileSync(shell, ['-c', launch.command], {
    env: { PATH: process.env['PATH'] },
    input: launch.stdinPreamble ?? '',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return JSON.parse(out.toString()) as {
    argv: string[];
    env: Record<string, string>;
    cwd: string;
  };
}

const config: SshEnvironmentConfig = {
  id: 'box',
  type: 'ssh',
  host: 'example.test',
  user: 'me',
  port: 2222,
  identityFile: '~/.ssh/id_test',
  sshOptions: ['-o', 'StrictHostKeyChecking=accept-new', '-J', 'jump'],
  cwd: null,
  description: null,
  location: { file: 'f', line: 1, column: 1, keyPath: 'environments.box' },
};

describe('remoteCommand', () => {
  const nasty = [
    "it's",
    '$HOME `id` $(id)',
    'back\\slash',
    'new\nline',
    '',
    '-n',
    '日本 🚀',
    "'\\''",
  ];

  for (const shell of ['sh', 'bash']) {
    it(`keeps argv, env and cwd exact in ${shell}`, () => {
      const secret = 'token\nwith newline';
      const launch = remoteLaunch({
        command: process.execPath,
        args: ['-e', PRINT, ...nasty],
        env: { PLAIN: nasty.join('|'), 'NOT.AN-IDENTIFIER': "x'y$z\nw", SECRET: secret },
        cwd: '/',
      });
      // Values travel on stdin, never in the command (argv of ssh and of the remote shell).
      expect(launch.command).not.toContain('with newline');
      expect(launch.command).not.toContain("x'y");
      expect(launch.stdinPreamble!.split('\n')).toHaveLength(2);
      const got = runIn(shell, launch);
      expect(got.argv).toEqual(nasty);
      expect(got.env['PLAIN']).toBe(nasty.join('|'));
      expect(got.env['NOT.AN-IDENTIFIER']).toBe("x'y$z\nw");
      expect(got.env['SECRET']).toBe(secret);
      expect(got.env['__mcprt_env']).toBeUndefined();
      expect(got.cwd).toBe('/');
    });
  }

  it('exits 127 when the cwd does not exist, before running anything', () => {
    const { command, stdinPreamble } = remoteLaunch({
      command: 'echo',
      args: ['ran'],
      env: {},
      cwd: '/no/such/dir',
    });
    expect(stdinPreamble).toBeNull();
    let status: number | null = null;
    let out = '';
    try {
      out = execFileSync('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    } catch (error) {
      status = (error as { status: number }).status;
    }
    expect(status).toBe(127);
    expect(out).toBe('');
  });

  it('quotes with single quotes only', () => {
    expect(shQuote("a'b")).toBe(`'a'\\''b'`);
    expect(shQuote('')).toBe("''");
  });
});

describe('ssh option order', () => {
  const options = (args: string[]) => args.flatMap((a, i) => (args[i - 1] === '-o' ? [a] : []));

  it('puts batch mode and the control socket before the user options, host-key checking after', () => {
    const args = clientArgs(config, '/tmp/dir/cm', 'true');
    const o = options(args);
    expect(o.indexOf('BatchMode=yes')).toBeLessThan(o.indexOf('StrictHostKeyChecking=accept-new'));
    expect(o.indexOf('ControlPath=/tmp/dir/cm')).toBeLessThan(
      o.indexOf('StrictHostKeyChecking=accept-new'),
    );
    // ssh keeps the first value: the user's accept-new wins over the default `yes`.
    expect(o.indexOf('StrictHostKeyChecking=accept-new')).toBeLessThan(
      o.indexOf('StrictHostKeyChecking=yes'),
    );
    expect(o).toContain('ControlMaster=no');
    expect(o).toContain('ProxyCommand=false');
    expect(args.slice(-3)).toEqual(['--', 'example.test', 'true']);
    expect(args).toEqual(
      expect.arrayContaining(['-J', 'jump', '-i', '~/.ssh/id_test', '-p', '2222', '-l', 'me']),
    );
  });

  it('makes the master the only control master, kept in the foreground', () => {
    const o = options(masterArgs(config, '/tmp/dir/cm', 'cmd'));
    expect(o).toEqual(
      expect.arrayContaining(['ControlMaster=yes', 'ControlPersist=no', 'BatchMode=yes']),
    );
    expect(o).not.toContain('ProxyCommand=false');
  });
});

describe('remote config framing', () => {
  it('finds the framed answer after login-shell noise', () => {
    const out = Buffer.from(
      'welcome!\nmcprt-remote-config\0/home/u/.mcprt/config.toml\0present\0[mcp_servers]\n',
    );
    expect(parseRemoteConfigOutput(out)).toEqual({
      path: '/home/u/.mcprt/config.toml',
      text: '[mcp_servers]\n',
    });
    expect(parseRemoteConfigOutput(Buffer.from('mcprt-remote-config\0/p\0absent\0'))).toEqual({
      path: '/p',
      text: null,
    });
    expect(parseRemoteConfigOutput(Buffer.from('no marker here'))).toBeNull();
  });
});
