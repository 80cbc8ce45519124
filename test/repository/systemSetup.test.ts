// `npm test` sets up the system tools it needs (scripts/setup-system.mjs, the list in
// scripts/system/packages.mjs): the decisions with an injected PATH and lookup, and real runs of
// the script with a PATH that hides the tools (the machine's packages are never touched).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  decide,
  isDebianLike,
  missingNeeds,
  packagesToInstall,
  pathLookup,
  SYSTEM_NEEDS,
} from '../../scripts/system/packages.mjs';
import { NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'setup-system.mjs');
const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';
const MINT = 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\n';

/** A folder of executables named `tools` (each a no-op script), as a PATH entry. */
function binDir(tools: readonly string[]): string {
  const dir = tempDir('mcprt-path-');
  for (const tool of tools) {
    writeFileSync(join(dir, tool), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, tool), 0o755);
  }
  return dir;
}

/** Links in `dir` to the PATH tools of SYSTEM_NEEDS found on this PATH, but those in `hidden`. */
function linkTools(dir: string, hidden: readonly string[]): void {
  const path = (process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== '');
  for (const { tool } of SYSTEM_NEEDS) {
    if (isAbsolute(tool) || hidden.includes(tool)) continue;
    const found = path.map((d) => join(d, tool)).find((p) => existsSync(p));
    if (found !== undefined) symlinkSync(found, join(dir, tool));
  }
}

describe('the system packages the suite needs', () => {
  it('one list: .ci/run has none of its own and runs npm test (in a fresh clone)', () => {
    const ci = readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8');
    expect(ci).not.toMatch(/apt-get|openssh-server|bubblewrap|gnome-keyring|haproxy/);
    expect(ci).toMatch(/^node scripts\/fresh-clone\.mjs/m);
    const fresh = readFileSync(join(REPO_ROOT, 'scripts', 'fresh-clone.mjs'), 'utf8');
    expect(fresh).toContain("sh('npm', ['ci', '--no-audit', '--no-fund'], clone)");
    expect(fresh).toContain("sh('npm', ['test'], clone)");
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['test']).toMatch(/^node scripts\/setup-system\.mjs && /);
    expect(SYSTEM_NEEDS.map((n) => n.tool)).toEqual(
      expect.arrayContaining([
        '/usr/sbin/sshd',
        '/usr/bin/bwrap',
        'gnome-keyring-daemon',
        'tmux',
        '/usr/sbin/haproxy',
      ]),
    );
  });

  it('looks names up on the given PATH and absolute paths as they are', () => {
    const dir = binDir(['tmux', 'ssh']);
    writeFileSync(join(dir, 'not-executable'), 'x');
    const lookup = pathLookup(`/nonexistent:${dir}`);
    expect(lookup('tmux')).toBe(true);
    expect(lookup('ssh-keygen')).toBe(false);
    expect(lookup('not-executable')).toBe(false);
    expect(lookup(join(dir, 'ssh'))).toBe(true);
    expect(lookup(join(dir, 'missing'))).toBe(false);
    expect(pathLookup('')('sh')).toBe(false);
  });

  it('reports exactly the needs the lookup cannot find', () => {
    const present = new Set([
      'sh',
      'env',
      'ssh',
      'ssh-keygen',
      'unshare',
      'tmux',
      'openssl',
      'dbus-daemon',
    ]);
    const missing = missingNeeds((tool) => present.has(tool));
    expect(missing.map((n) => n.tool)).toEqual([
      '/usr/sbin/sshd',
      '/usr/bin/bwrap',
      'gnome-keyring-daemon',
      '/usr/sbin/haproxy',
    ]);
    expect(missingNeeds(() => true)).toEqual([]);
  });

  it('recognises Debian, Ubuntu and derivatives, and nothing else', () => {
    expect([DEBIAN, UBUNTU, MINT].map(isDebianLike)).toEqual([true, true, true]);
    expect([FEDORA, '', null].map(isDebianLike)).toEqual([false, false, false]);
  });

  it('installs as root or with passwordless sudo on Debian/Ubuntu; otherwise stops with one line per tool', () => {
    const missing = missingNeeds((tool) => tool !== '/usr/sbin/sshd' && tool !== 'tmux');
    const facts = {
      missing,
      osRelease: DEBIAN,
      isRoot: true,
      sudo: false,
      aptGet: true,
      installAllowed: true,
    };
    expect(decide(facts)).toEqual({ action: 'install', sudo: false });
    expect(decide({ ...facts, isRoot: false, sudo: true })).toEqual({
      action: 'install',
      sudo: true,
    });
    expect(decide({ ...facts, missing: [] })).toEqual({ action: 'none' });
    const lines = [
      'missing: /usr/sbin/sshd (Debian/Ubuntu package openssh-server)',
      'missing: tmux (Debian/Ubuntu package tmux)',
    ];
    expect(decide({ ...facts, osRelease: FEDORA })).toEqual({
      action: 'stop',
      lines: [...lines, 'system packages: install them with your system package manager'],
    });
    expect(decide({ ...facts, isRoot: false })).toMatchObject({
      action: 'stop',
      lines: [...lines, expect.stringContaining('as root or with passwordless sudo')],
    });
    expect(decide({ ...facts, aptGet: false })).toMatchObject({ action: 'stop' });
    expect(decide({ ...facts, installAllowed: false })).toMatchObject({ action: 'stop' });
  });

  it('installs each package once, the first one the package manager knows', () => {
    const missing = missingNeeds((tool) => !['ssh', 'ssh-keygen', 'dbus-daemon'].includes(tool));
    expect(packagesToInstall(missing, () => true)).toEqual(['openssh-client', 'dbus-daemon']);
    expect(packagesToInstall(missing, (p) => p !== 'dbus-daemon')).toEqual([
      'openssh-client',
      'dbus',
    ]);
    expect(packagesToInstall(missing, () => false)).toEqual(['openssh-client', 'dbus-daemon']);
  });

  it('a real run with the tools hidden from PATH stops at once, one line per missing tool', () => {
    const dir = tempDir('mcprt-path-');
    mkdirSync(join(dir, 'bin'));
    symlinkSync(NODE, join(dir, 'bin', 'node'));
    const run = (args: string[]) =>
      spawnSync(NODE, [SCRIPT, ...args], {
        encoding: 'utf8',
        env: { PATH: join(dir, 'bin'), HOME: dir },
        timeout: 30_000,
      });
    const checked = run(['--check']);
    expect(checked.status).toBe(1);
    const lookup = pathLookup(join(dir, 'bin'));
    const expected = missingNeeds(lookup).map((n) => `missing: ${n.tool} `);
    expect(expected.length).toBeGreaterThanOrEqual(8); // every PATH tool; sshd/bwrap are absolute
    const lines = checked.stderr.trim().split('\n');
    expect(lines.slice(0, -1).map((l) => l.slice(0, l.indexOf('(')))).toEqual(expected);
    expect(lines.at(-1)).toBe('system packages: not installing them (--check)');
    // Without --check it would install (apt-get comes from the system folders, never PATH, so
    // hiding it from PATH does not stop that): --dry-run only says what it would run as root.
    // (Only tmux hidden here: one package, one apt-cache query.)
    linkTools(join(dir, 'bin'), ['tmux']);
    const plain = run(['--dry-run']);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('missing: tmux (Debian/Ubuntu package tmux)');
    expect(plain.stderr.trim().split('\n').at(-1)).toMatch(/^system packages: /);
    const updates = plain.stderr.split('\n').filter((l) => l.includes('apt-get update'));
    for (const line of updates) expect(line).toMatch(/^setup-system: would run /);
  });

  it('a real run on this machine finds everything and prints nothing', () => {
    const run = spawnSync(NODE, [SCRIPT, '--check'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
