/** Unit tests: which paths `mcprt sandbox` hides, and how a plan is changed to hide them. */

import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { SandboxRefusal } from './errors.js';
import type { FsRule } from './plan.js';
import { hideProtected, protectedPaths } from './secrets.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcprt-secrets-')));
const rule = (path: string, access: FsRule['access']): FsRule => ({ path, access, origin: 't' });

describe('protectedPaths', () => {
  it('the mcprt home, the session directories and the registered list with its directory', () => {
    const list = join(dir, 'launcher', 'protected');
    mkdirSync(join(dir, 'launcher'));
    writeFileSync(list, JSON.stringify(['/srv/token', '/home/me/.mcprt-other']));
    expect(
      protectedPaths({
        HOME: '/home/me',
        MCPRT_HOME: '/data/mcprt',
        XDG_RUNTIME_DIR: '/run/user/1000',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/tmp/dbus%2dsession,guid=x;unix:abstract=/tmp/a',
        MCPRT_SANDBOX_PROTECT_FILE: list,
      }),
    ).toEqual([
      '/data/mcprt',
      '/home/me/.mcprt',
      '/run/user/1000',
      `/run/user/${process.getuid!()}`,
      '/tmp/dbus-session',
      join(dir, 'launcher'),
      '/srv/token',
      '/home/me/.mcprt-other',
    ]);
  });

  it('refuses a relative or unreadable list, or one that is not absolute paths', () => {
    expect(() => protectedPaths({ MCPRT_SANDBOX_PROTECT_FILE: 'rel/list' })).toThrowError(
      'cannot enforce the sandbox state: $MCPRT_SANDBOX_PROTECT_FILE must be an absolute path, got `rel/list`',
    );
    expect(() => protectedPaths({ MCPRT_SANDBOX_PROTECT_FILE: join(dir, 'none') })).toThrowError(
      /cannot read the paths to hide from \$MCPRT_SANDBOX_PROTECT_FILE .*ENOENT/,
    );
    const bad = join(dir, 'bad');
    writeFileSync(bad, '["relative"]');
    expect(() => protectedPaths({ MCPRT_SANDBOX_PROTECT_FILE: bad })).toThrowError(
      `${bad} must be a JSON array of absolute paths`,
    );
  });
});

describe('hideProtected', () => {
  it('denies each existing protected path and drops every rule at or inside one', () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'sub'), { recursive: true });
    writeFileSync(join(home, 'token'), 't');
    const work = join(dir, 'work');
    mkdirSync(work);
    const plan = hideProtected(
      {
        kind: 'bwrap',
        rules: [
          rule('/', 'read'),
          rule(dir, 'write'),
          rule(home, 'read'),
          rule(join(home, 'sub'), 'write'),
          rule(join(home, 'token'), 'write'),
          rule(join(dir, 'missing'), 'deny'),
        ],
        network: false,
        cwd: work,
      },
      [home, join(dir, 'not-there')],
    );
    expect(plan.rules.map((r) => `${r.access} ${r.path}`)).toEqual([
      'read /',
      `write ${dir}`,
      `deny ${join(dir, 'missing')}`,
      `deny ${home}`,
    ]);
  });

  it('refuses a working directory inside a protected path', () => {
    const home = join(dir, 'home2');
    mkdirSync(join(home, 'work'), { recursive: true });
    let error: unknown;
    try {
      hideProtected(
        { kind: 'bwrap', rules: [rule('/', 'read')], network: false, cwd: join(home, 'work') },
        [home],
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SandboxRefusal);
    expect((error as Error).message).toBe(
      `cannot enforce the sandbox state: the sandbox cwd \`${join(home, 'work')}\` is inside \`${home}\`, which sandboxed commands must not see`,
    );
  });
});
