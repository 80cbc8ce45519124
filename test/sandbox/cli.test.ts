/**
 * `mcprt sandbox` with real bubblewrap: writes only inside writable roots, `/tmp` per policy,
 * denied paths hidden, no TCP to 127.0.0.1 unless the network is enabled, the cwd from
 * `sandboxCwd`, the exit status passed through, death with its parent — and failing closed
 * (exit 125, one message, command not run) on any state it cannot enforce or without bubblewrap.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { NODE, tempDir, waitFor } from '../helpers/fixtures.js';
import { assertBubblewrapWorks, CLI, runSandbox, runSandboxAsync } from './helpers.js';

const REFUSED = 125;

const profile = (entries: unknown[], network = 'restricted', extra: object = {}) => ({
  permissionProfile: {
    type: 'managed',
    file_system: { type: 'restricted', entries },
    network,
    ...extra,
  },
});
const special = (kind: string, access: string, more: object = {}) => ({
  path: { type: 'special', value: { kind, ...more } },
  access,
});
const pathEntry = (path: string, access: string) => ({ path: { type: 'path', path }, access });

/** `sh -c script` in the sandbox; the script's exit status is the result. */
const sh = (state: unknown, script: string, cwd?: string) =>
  runSandbox(state, ['sh', '-c', script], cwd === undefined ? {} : { cwd });

beforeAll(() => assertBubblewrapWorks());

describe('file system', () => {
  it('read-only: nothing is writable, the cwd is sandboxCwd, the exit status passes through', () => {
    const dir = tempDir('mcprt-sbx-');
    const r = sh({ sandboxPolicy: { type: 'readOnly' }, sandboxCwd: dir }, 'pwd; touch x; exit 7');
    expect(r.status).toBe(7);
    expect(r.stdout.trim()).toBe(dir);
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });

  it('workspaceWrite: writable roots and the cwd are writable, nothing else; .git stays read-only', () => {
    const cwd = tempDir('mcprt-sbx-cwd-');
    const root = tempDir('mcprt-sbx-root-');
    const outside = tempDir('mcprt-sbx-out-');
    mkdirSync(join(cwd, '.git'));
    const state = {
      sandboxPolicy: {
        type: 'workspaceWrite',
        writableRoots: [root],
        excludeSlashTmp: true,
        excludeTmpdirEnvVar: true,
      },
      sandboxCwd: cwd,
    };
    const r = sh(
      state,
      `touch in-cwd && touch ${root}/in-root && echo inside-ok;` +
        ` touch ${outside}/out 2>/dev/null; echo out=$?; touch .git/hook 2>/dev/null; echo git=$?`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('inside-ok\nout=1\ngit=1\n');
    expect(existsSync(join(cwd, 'in-cwd'))).toBe(true);
    expect(existsSync(join(root, 'in-root'))).toBe(true);
    expect(existsSync(join(outside, 'out'))).toBe(false);
    expect(existsSync(join(cwd, '.git/hook'))).toBe(false);
  });

  it('workspaceWrite: /tmp is writable unless excludeSlashTmp', () => {
    const cwd = tempDir('mcprt-sbx-cwd-');
    const elsewhere = tempDir('mcprt-sbx-tmp-'); // under /tmp, outside the writable roots
    const env = { ...process.env, TMPDIR: '/tmp' };
    const policy = (excludeSlashTmp: boolean) => ({
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp, excludeTmpdirEnvVar: true },
      sandboxCwd: cwd,
    });
    const run = (state: unknown, file: string) =>
      runSandbox(state, ['touch', join(elsewhere, file)], { env });
    expect(run(policy(false), 'allowed').status).toBe(0);
    expect(existsSync(join(elsewhere, 'allowed'))).toBe(true);
    expect(run(policy(true), 'refused').status).not.toBe(0);
    expect(existsSync(join(elsewhere, 'refused'))).toBe(false);
  });

  it('permissionProfile: root read, project_roots write, denied file and directory hidden', () => {
    const cwd = tempDir('mcprt-sbx-proj-');
    const outside = tempDir('mcprt-sbx-out-');
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    mkdirSync(join(outside, 'private'));
    writeFileSync(join(outside, 'private', 'key'), 'k');
    writeFileSync(join(outside, 'public.txt'), 'hello');
    const state = {
      ...profile([
        special('root', 'read'),
        special('project_roots', 'write'),
        pathEntry(join(outside, 'secret.txt'), 'deny'),
        pathEntry(join(outside, 'private'), 'deny'),
      ]),
      sandboxCwd: pathToFileURL(cwd).href,
      codexLinuxSandboxExe: null,
      useLegacyLandlock: false,
    };
    const r = sh(
      state,
      `pwd; touch made && echo wrote; cat ${outside}/public.txt; echo;` +
        ` cat ${outside}/secret.txt 2>/dev/null; echo secret=$?;` +
        ` ls ${outside}/private 2>/dev/null; echo private=$?; touch ${outside}/x 2>/dev/null; echo out=$?`,
    );
    expect(r.stdout).toBe(`${cwd}\nwrote\nhello\nsecret=1\nprivate=2\nout=1\n`);
    expect(r.status).toBe(0);
    expect(readdirSync(cwd)).toEqual(['made']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('permissionProfile: a project_roots subpath is writable, the rest of the project is not', () => {
    const cwd = tempDir('mcprt-sbx-proj-');
    mkdirSync(join(cwd, 'out'));
    const state = {
      ...profile([special('root', 'read'), special('project_roots', 'write', { subpath: 'out' })]),
      sandboxCwd: pathToFileURL(cwd).href,
    };
    const r = sh(state, 'touch out/a && echo sub-ok; touch b 2>/dev/null; echo top=$?', cwd);
    expect(r.stdout).toBe('sub-ok\ntop=1\n');
    expect(existsSync(join(cwd, 'out', 'a'))).toBe(true);
    expect(existsSync(join(cwd, 'b'))).toBe(false);
  });

  it('permissionProfile: /tmp is writable only with a slash_tmp write entry', () => {
    const elsewhere = tempDir('mcprt-sbx-tmp-');
    const run = (entries: unknown[], file: string) =>
      runSandbox({ ...profile(entries), sandboxCwd: 'file:///' }, ['touch', join(elsewhere, file)]);
    expect(run([special('root', 'read'), special('slash_tmp', 'write')], 'allowed').status).toBe(0);
    expect(existsSync(join(elsewhere, 'allowed'))).toBe(true);
    expect(run([special('root', 'read')], 'refused').status).not.toBe(0);
    expect(existsSync(join(elsewhere, 'refused'))).toBe(false);
  });

  it('dangerFullAccess and externalSandbox run the command as is', () => {
    const dir = tempDir('mcprt-sbx-');
    for (const type of ['dangerFullAccess', 'externalSandbox']) {
      const r = sh({ sandboxPolicy: { type }, sandboxCwd: dir }, `touch ${type}; exit 3`, dir);
      expect(r.status).toBe(3);
      expect(existsSync(join(dir, type))).toBe(true);
    }
  });
});

describe('network', () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.end('pong');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => {
    server.close();
  });

  /** Node in the sandbox: connect to 127.0.0.1:port; exit 0 with the reply, 3 on error. */
  const connect = (state: unknown) =>
    runSandboxAsync(state, [
      NODE,
      '-e',
      `const s = require('node:net').connect(${port}, '127.0.0.1');` +
        `s.on('data', (d) => { process.stdout.write(String(d)); process.exit(0); });` +
        `s.on('error', (e) => { process.stdout.write(e.code); process.exit(3); });`,
    ]);

  it('restricted: no TCP connection to 127.0.0.1', async () => {
    const before = connections;
    for (const state of [
      { sandboxPolicy: { type: 'readOnly' } },
      profile([special('root', 'read')]),
    ]) {
      const r = await connect(state);
      expect(r.status).toBe(3);
      expect(r.stdout).toBe('ECONNREFUSED');
    }
    expect(connections).toBe(before);
  });

  it('enabled: the same connection succeeds', async () => {
    const before = connections;
    for (const state of [
      { sandboxPolicy: { type: 'readOnly', networkAccess: true } },
      profile([special('root', 'read')], 'enabled'),
    ]) {
      const r = await connect(state);
      expect(r.stdout).toBe('pong');
      expect(r.status).toBe(0);
    }
    expect(connections).toBe(before + 2);
  });
});

describe('fails closed', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'an unknown policy type',
      { sandboxPolicy: { type: 'sandboxOfTheFuture' } },
      /unknown sandboxPolicy\.type `sandboxOfTheFuture`/,
    ],
    [
      'an unknown profile type',
      { permissionProfile: { type: 'disabled' } },
      /unknown permissionProfile\.type `disabled`/,
    ],
    [
      'an unknown file-system type',
      { permissionProfile: { type: 'managed', file_system: { type: 'unrestricted' } } },
      /unknown permissionProfile\.file_system\.type `unrestricted`/,
    ],
    [
      'a glob pattern',
      profile([{ path: { type: 'glob_pattern', pattern: '**/.env' }, access: 'deny' }]),
      /glob patterns are not supported/,
    ],
    [
      'an unknown special path',
      profile([special('unknown', 'read', { path: '/x' })]),
      /unknown permissionProfile\.file_system\.entries\[0\]\.path\.value\.kind `unknown`/,
    ],
    [
      'a subpath escaping the project',
      profile([special('project_roots', 'write', { subpath: '../up' })]),
      /must be a relative path inside the project/,
    ],
    [
      'an unknown field in the policy',
      { sandboxPolicy: { type: 'readOnly', readableRoots: ['/x'] } },
      /unknown field `readableRoots` in sandboxPolicy/,
    ],
    [
      'a relative writable root',
      { sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['rel'] } },
      /writableRoots\[0\] must be an absolute path/,
    ],
    [
      'a relative sandboxCwd',
      { sandboxPolicy: { type: 'readOnly' }, sandboxCwd: 'project' },
      /sandboxCwd must be a file:\/\/ URL or an absolute path/,
    ],
    [
      'a state with neither shape',
      { sandbox: 'read-only' },
      /neither `permissionProfile` nor `sandboxPolicy`/,
    ],
    [
      'a state that is not an object',
      ['readOnly'],
      /the state must be a JSON object, got an array/,
    ],
    ['invalid JSON', '{"sandboxPolicy":', /--sandbox-state-json is not valid JSON/],
    [
      'a non-boolean networkAccess',
      { sandboxPolicy: { type: 'readOnly', networkAccess: 'yes' } },
      /networkAccess must be a boolean/,
    ],
  ];

  it.each(cases)('%s: exit 125, a clear message, the command not run', (_what, state, message) => {
    const dir = tempDir('mcprt-sbx-refused-');
    const marker = join(dir, 'ran');
    const r = runSandbox(state, ['touch', marker]);
    expect(r.status).toBe(REFUSED);
    expect(r.stderr).toMatch(/^mcprt sandbox: cannot enforce the sandbox state: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/`touch` was not run\n$/);
    expect(r.stdout).toBe('');
    expect(existsSync(marker)).toBe(false);
  });

  it('a deny of a path that does not exist inside a writable root is refused', () => {
    const cwd = tempDir('mcprt-sbx-');
    const marker = join(cwd, 'ran');
    const r = runSandbox(
      {
        ...profile([
          special('root', 'read'),
          special('project_roots', 'write'),
          pathEntry(join(cwd, '.env'), 'deny'),
        ]),
        sandboxCwd: cwd,
      },
      ['touch', marker],
    );
    expect(r.status).toBe(REFUSED);
    expect(r.stderr).toMatch(
      /cannot deny `.*\/\.env`: it does not exist and a writable root contains it/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  // Hiding bubblewrap needs a private mount namespace: root (as CI runs) with `unshare`.
  const canHide =
    process.getuid?.() === 0 && spawnSync('unshare', ['--mount', 'true']).status === 0;
  it.skipIf(!canHide)('missing bubblewrap: exit 125, a clear message, the command not run', () => {
    const dir = tempDir('mcprt-sbx-nobwrap-');
    const marker = join(dir, 'ran');
    const state = JSON.stringify({ sandboxPolicy: { type: 'readOnly' } });
    const hide =
      'for p in /usr/bin/bwrap /bin/bwrap /usr/local/bin/bwrap; do ' +
      '[ -e "$p" ] && { mount --bind /dev/null "$p" || exit 99; }; done; ' +
      'exec "$@"';
    const r = spawnSync(
      'unshare',
      [
        '--mount',
        'sh',
        '-c',
        hide,
        'sh',
        NODE,
        CLI,
        'sandbox',
        '--sandbox-state-json',
        state,
        '--',
        'touch',
        marker,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(REFUSED);
    expect(r.stderr).toBe(
      'mcprt sandbox: bubblewrap (bwrap) is not installed: looked in /usr/bin/bwrap, /bin/bwrap, /usr/local/bin/bwrap (install the `bubblewrap` package); `touch` was not run\n',
    );
    expect(existsSync(marker)).toBe(false);
    // Outside that namespace bubblewrap is still there (nothing was changed for others).
    expect(runSandbox(state, ['true']).status).toBe(0);
  });

  it('usage errors exit 2 without running anything', () => {
    const r = spawnSync(NODE, [CLI, 'sandbox', '--', 'true'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'mcprt: usage: mcprt sandbox --sandbox-state-json <json> -- <cmd> [args...]\n',
    );
  });
});

describe('process lifetime', () => {
  it('a signal death is reported as 128+N', () => {
    const r = sh({ sandboxPolicy: { type: 'readOnly' } }, 'kill -TERM $$');
    expect(r.status).toBe(143);
  });

  it('the sandboxed command dies with the launcher’s parent', async () => {
    const token = `${Date.now() % 100000}.${process.pid}`;
    const state = JSON.stringify({ sandboxPolicy: { type: 'readOnly' } });
    // `sh` stays the launcher's parent (the trailing `:` stops it from exec-ing the launcher).
    const parent = spawn(
      'sh',
      [
        '-c',
        '"$@"; :',
        'sh',
        NODE,
        CLI,
        'sandbox',
        '--sandbox-state-json',
        state,
        '--',
        'sleep',
        token,
      ],
      { stdio: 'ignore' },
    );
    const sleeper = () =>
      readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .find((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${token}\0`;
          } catch {
            return false;
          }
        });
    await waitFor(sleeper, 15_000, 'the sandboxed command to start');
    parent.kill('SIGKILL');
    await waitFor(() => sleeper() === undefined, 10_000, 'the sandboxed command to die');
  });
});
