// The ssh environment itself against a real sshd: one control connection for everything, exact
// quoting of argv/env/cwd (a property test of 1000 random values through real ssh), host-key
// checking on by default, batch mode, health and reconnect backoff.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { SshEnvironmentConfig } from '@mcprt/runtime';

import { SshEnvironment } from '../../packages/runtime/src/environments/ssh.js';
import type { EnvironmentHealth } from '../../packages/runtime/src/environments/types.js';
import { NODE, tempDir, waitFor } from '../helpers/fixtures.js';
import { Sshd } from '../helpers/sshd.js';
import { PRINT_ARGV_ENV, runThrough } from './helpers.js';
import { randomValue, seededRandom } from './randomValues.js';

let sshd: Sshd;
let home: string;
const open: SshEnvironment[] = [];

beforeAll(async () => {
  home = tempDir('mcprt-ssh-home-');
  sshd = await Sshd.start([{ home, env: { MCPRT_TEST_REMOTE_ONLY: 'set-by-sshd' } }]);
});
afterAll(async () => {
  await sshd.close();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

function environment(overrides: Partial<SshEnvironmentConfig> = {}): SshEnvironment {
  const env = new SshEnvironment({
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
    ...overrides,
  });
  open.push(env);
  return env;
}

describe('ssh environment', () => {
  it('delivers 1000 random argument and 1000 random environment values byte-identical', async () => {
    const seed = Number(process.env['MCPRT_PROPERTY_SEED'] ?? Date.now() % 2 ** 31);
    const random = seededRandom(seed);
    const env = environment();
    const logins = sshd.acceptedLogins();
    // A cwd that needs quoting too.
    const cwd = tempDir(`mcprt cwd 'q' $x \\ ü `);
    const runs = 50;
    const perRun = 20;
    const mismatches: string[] = [];
    let checked = 0;
    for (let batch = 0; batch < runs; batch += 5) {
      await Promise.all(
        Array.from({ length: 5 }, async () => {
          const args = Array.from({ length: perRun }, () => randomValue(random));
          const vars = Object.fromEntries(
            Array.from({ length: perRun }, (_, i) => [`MCPRT_P${i}`, randomValue(random)]),
          );
          const out = await runThrough(env, {
            command: NODE,
            args: [PRINT_ARGV_ENV, ...args],
            env: vars,
            cwd,
          });
          const got = JSON.parse(out.stdout) as {
            argv: string[];
            env: Record<string, string>;
            cwd: string;
          };
          expect(got.cwd).toBe(cwd);
          args.forEach((value, i) => {
            checked += 1;
            if (!Buffer.from(got.argv[i] ?? '\u0000missing').equals(Buffer.from(value))) {
              mismatches.push(
                `arg ${JSON.stringify(value)} arrived as ${JSON.stringify(got.argv[i])}`,
              );
            }
          });
          expect(got.argv).toHaveLength(args.length);
          for (const [name, value] of Object.entries(vars)) {
            checked += 1;
            if (!Buffer.from(got.env[name] ?? '\u0000missing').equals(Buffer.from(value))) {
              mismatches.push(
                `${name}=${JSON.stringify(value)} arrived as ${JSON.stringify(got.env[name])}`,
              );
            }
          }
        }),
      );
    }
    expect(checked).toBe(2000);
    expect(mismatches, `seed ${seed} (rerun with MCPRT_PROPERTY_SEED=${seed})`).toEqual([]);
    // Fifty sessions, one ssh connection.
    expect(sshd.acceptedLogins() - logins).toBe(1);
  });

  it('runs in the remote login environment: remote variables stay, the cwd applies, HOME is the remote one', async () => {
    const env = environment();
    const out = await runThrough(env, {
      command: NODE,
      args: [PRINT_ARGV_ENV],
      env: { FORWARDED: 'from-here' },
      cwd: '/',
    });
    const got = JSON.parse(out.stdout) as { env: Record<string, string>; cwd: string };
    expect(got.cwd).toBe('/');
    expect(got.env['HOME']).toBe(home);
    expect(got.env['MCPRT_TEST_REMOTE_ONLY']).toBe('set-by-sshd');
    expect(got.env['FORWARDED']).toBe('from-here');
  });

  it('never puts forwarded values in any process argv, here or on the remote side', async () => {
    const env = environment();
    const secret = `s3cret-${process.pid}-${Date.now()}`;
    const child = env.spawn({
      command: NODE,
      args: ['-e', 'process.stdin.resume(); console.log(process.env.TOKEN)'],
      env: { TOKEN: secret },
      cwd: null,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((r) => child.once('spawn', r));
    await waitFor(() => out.includes(secret), 10_000, 'the server to see its variable');
    const argvs = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .map((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8');
        } catch {
          return '';
        }
      });
    // The ssh client carrying the remote command is among them; the value is in no argv.
    expect(argvs.some((a) => a.includes('__mcprt_env'))).toBe(true);
    expect(argvs.filter((a) => a.includes(secret))).toEqual([]);
    child.stdin.end();
    await new Promise((r) => child.once('close', r));
  });

  it('fails a missing remote cwd with exit 127 and the shell message', async () => {
    const out = await runThrough(environment(), {
      command: NODE,
      args: [PRINT_ARGV_ENV],
      env: {},
      cwd: '/nonexistent/mcprt-dir',
    });
    expect(out.code).toBe(127);
    expect(out.stderr).toMatch(/nonexistent\/mcprt-dir/);
  });

  it('keeps its sockets in a private 0700 directory and reports health transitions', async () => {
    const env = environment();
    const seen: EnvironmentHealth['state'][] = [];
    env.onHealthChange((h) => seen.push(h.state));
    expect(env.health()).toEqual({ state: 'disconnected', error: null, nextAttemptAt: null });
    await env.connect();
    expect(seen).toEqual(['connecting', 'ready']);
    expect(env.health().state).toBe('ready');
    const dir = env.controlDirectory!;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'cm')).isSocket()).toBe(true);
    await env.close();
    expect(() => statSync(dir)).toThrow();
  });

  it('checks host keys by default: an unknown host key fails, naming the environment, and backs off', async () => {
    const env = environment({
      sshOptions: [
        '-F',
        '/dev/null',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-o',
        'GlobalKnownHostsFile=/dev/null',
      ],
    });
    const logins = sshd.acceptedLogins();
    const first = await runThrough(env, { command: NODE, args: [], env: {}, cwd: null });
    expect(first.spawnError).toMatch(
      /^ssh environment `box` \(.*@127\.0\.0\.1:\d+\) could not connect: .*Host key verification failed/,
    );
    const health = env.health();
    expect(health.state).toBe('disconnected');
    expect(health.error).toMatch(/Host key verification failed/);
    expect(health.nextAttemptAt).toBeGreaterThan(Date.now());
    // Within the backoff window the next use fails at once, without a new attempt.
    const second = await runThrough(env, { command: NODE, args: [], env: {}, cwd: null });
    expect(second.spawnError).toMatch(
      /^ssh environment `box` .* is disconnected: .*Host key verification failed.*; next reconnect attempt in \d+ s$/,
    );
    expect(sshd.acceptedLogins()).toBe(logins);
    // A reload resets the backoff: the next use tries again (and fails the same way).
    env.resetBackoff();
    const third = await runThrough(env, { command: NODE, args: [], env: {}, cwd: null });
    expect(third.spawnError).toMatch(/could not connect: .*Host key verification failed/);
  });

  it('lets ssh_options override the host-key default', async () => {
    const env = environment({
      sshOptions: [
        '-F',
        '/dev/null',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-o',
        'GlobalKnownHostsFile=/dev/null',
        '-o',
        'StrictHostKeyChecking=no',
      ],
    });
    const out = await runThrough(env, { command: 'echo', args: ['connected'], env: {}, cwd: null });
    expect(out.stdout.trim()).toBe('connected');
  });

  it('never prompts: a key the server does not accept fails at once (batch mode)', async () => {
    const dir = tempDir();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'stranger')]);
    const env = environment({ identityFile: join(dir, 'stranger') });
    const started = Date.now();
    const out = await runThrough(env, { command: 'true', args: [], env: {}, cwd: null });
    expect(out.spawnError).toMatch(/could not connect: .*Permission denied \(publickey/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
