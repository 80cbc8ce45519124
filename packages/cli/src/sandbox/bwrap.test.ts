/** Unit tests: the bubblewrap argv for a plan, and where bubblewrap is looked for. */

import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { bwrapArgs, findBwrap } from './bwrap.js';
import type { FsRule } from './plan.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcprt-bwrap-')));
const rule = (path: string, access: FsRule['access']): FsRule => ({ path, access, origin: 'test' });

describe('bwrapArgs', () => {
  it('mounts shallow to deep; at the same path the most restrictive rule wins', () => {
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'a/secret'), 's');
    const args = bwrapArgs(
      {
        rules: [
          rule(join(dir, 'a/b'), 'write'),
          rule(join(dir, 'a'), 'write'),
          rule(join(dir, 'a'), 'read'),
          rule('/', 'read'),
          rule(join(dir, 'a/secret'), 'deny'),
          rule(join(dir, 'missing'), 'read'),
        ],
        network: false,
        cwd: dir,
      },
      ['sh', '-c', 'true'],
    );
    expect(args).toEqual([
      '--ro-bind', '/', '/',
      '--dev', '/dev', '--proc', '/proc',
      '--ro-bind', join(dir, 'a'), join(dir, 'a'),
      '--bind', join(dir, 'a/b'), join(dir, 'a/b'),
      '--perms', '0000', '--ro-bind-data', '3', join(dir, 'a/secret'),
      '--unshare-all',
      '--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', dir,
      '--', 'sh', '-c', 'true',
    ]); // prettier-ignore
  });

  it('a denied directory becomes an empty read-only tmpfs; network enabled shares the net', () => {
    mkdirSync(join(dir, 'hidden'), { recursive: true });
    const args = bwrapArgs(
      { rules: [rule('/', 'write'), rule(join(dir, 'hidden'), 'deny')], network: true, cwd: '/' },
      ['true'],
    );
    expect(args.slice(0, 3)).toEqual(['--bind', '/', '/']);
    expect(args.join(' ')).toContain(
      `--perms 0000 --tmpfs ${join(dir, 'hidden')} --remount-ro ${join(dir, 'hidden')} --unshare-all --share-net`,
    );
  });

  it('refuses to deny / and a missing path a writable root contains', () => {
    expect(() =>
      bwrapArgs({ rules: [rule('/', 'deny')], network: false, cwd: '/' }, ['x']),
    ).toThrowError('denying `/` leaves nothing to run');
    expect(() =>
      bwrapArgs(
        {
          rules: [rule(dir, 'write'), rule(join(dir, 'nope/.env'), 'deny')],
          network: false,
          cwd: '/',
        },
        ['x'],
      ),
    ).toThrowError(
      /cannot deny `.*nope\/\.env`: it does not exist and a writable root contains it/,
    );
    // Not inside a writable root: nothing can create it, so there is nothing to hide.
    expect(() =>
      bwrapArgs(
        { rules: [rule('/', 'read'), rule(join(dir, 'nope'), 'deny')], network: false, cwd: '/' },
        ['x'],
      ),
    ).not.toThrow();
  });
});

describe('findBwrap', () => {
  it('takes the first executable regular file of the fixed locations, never PATH', () => {
    const notExec = join(dir, 'bwrap-not-exec');
    writeFileSync(notExec, '', { mode: 0o644 });
    const exec = join(dir, 'bwrap-exec');
    writeFileSync(exec, '#!/bin/sh\n', { mode: 0o755 });
    expect(findBwrap([join(dir, 'none'), dir, '/dev/null', exec])).toBe(exec);
    expect(() => findBwrap([notExec])).toThrowError(/not installed/);
    expect(() => findBwrap([join(dir, 'none')])).toThrowError(
      `bubblewrap (bwrap) is not installed: looked in ${join(dir, 'none')} (install the \`bubblewrap\` package)`,
    );
  });
});
