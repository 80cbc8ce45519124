// What `npm test`'s system setup (scripts/setup-system.mjs) runs as root never comes from the
// caller's PATH or environment: npm puts node_modules/.bin of the checkout and of every folder above
// it ahead of /usr/bin, so a clone under a shared folder could otherwise run another user's
// `apt-get` as root. The owner/mode decision as a pure function, the resolver on real files, the
// fixed environment, and real runs of the script with planted tools first on PATH (the machine's
// packages are never touched: --check and --dry-run stop before anything runs as root).
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
  resolveSystemTool,
  SYSTEM_DIRS,
  SYSTEM_NEEDS,
  systemCommand,
  TOOL_ENV,
  toolProblem,
  type Resolved,
} from '../../scripts/system/packages.mjs';
import { NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'setup-system.mjs');
const IS_ROOT = process.getuid?.() === 0;
const FIXED_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', DEBIAN_FRONTEND: 'noninteractive' };
/** Everything the setup could run, and what a system may have for it. */
const PLANTED = ['apt-get', 'apt-cache', 'apt', 'dpkg', 'dpkg-query', 'sudo', 'env', 'true', 'id'];

/** Links in `dir` to the PATH tools of SYSTEM_NEEDS found on this PATH, but those in `hidden`. */
function linkTools(dir: string, hidden: readonly string[]): void {
  const path = (process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== '');
  for (const { tool } of SYSTEM_NEEDS) {
    if (isAbsolute(tool) || hidden.includes(tool)) continue;
    const found = path.map((d) => join(d, tool)).find((p) => existsSync(p));
    if (found !== undefined) symlinkSync(found, join(dir, tool));
  }
}

/** A folder holding `name` with `mode`. */
function toolIn(name: string, mode: number, dir = tempDir('mcprt-sysdir-')): string {
  writeFileSync(join(dir, name), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, name), mode);
  return dir;
}

describe('the programs the system setup runs as root', () => {
  it('are trusted only if they and their folder are root-owned and writable by no one else', () => {
    const file = { uid: 0, mode: 0o100755, isFile: true };
    const folder = { uid: 0, mode: 0o40755 };
    expect(toolProblem(file, folder, '/usr/bin')).toBeNull();
    expect(toolProblem({ ...file, mode: 0o100555 }, folder, '/usr/bin')).toBeNull();
    expect(toolProblem({ ...file, mode: 0o100775 }, folder, '/usr/bin')).toBe(
      'it is writable by its group',
    );
    expect(toolProblem({ ...file, mode: 0o100757 }, folder, '/usr/bin')).toBe(
      'it is writable by everyone',
    );
    expect(toolProblem({ ...file, uid: 1000 }, folder, '/usr/bin')).toBe(
      'it is owned by uid 1000, not root',
    );
    expect(toolProblem({ ...file, isFile: false }, folder, '/usr/bin')).toBe(
      'it is not a regular file',
    );
    expect(toolProblem({ ...file, mode: 0o100644 }, folder, '/usr/bin')).toBe(
      'it is not executable',
    );
    expect(toolProblem(file, { uid: 0, mode: 0o40775 }, '/usr/bin')).toBe(
      'its folder /usr/bin is writable by its group',
    );
    // Sticky or not, a world-writable folder (/tmp) is refused.
    expect(toolProblem(file, { uid: 0, mode: 0o41777 }, '/tmp')).toBe(
      'its folder /tmp is writable by everyone',
    );
    expect(toolProblem(file, { uid: 1000, mode: 0o40755 }, '/home/x/.bin')).toBe(
      'its folder /home/x/.bin is owned by uid 1000, not root',
    );
  });

  it('come only from /usr/sbin, /usr/bin, /sbin and /bin, and run with a fixed environment', () => {
    expect(SYSTEM_DIRS).toEqual(['/usr/sbin', '/usr/bin', '/sbin', '/bin']);
    expect(TOOL_ENV).toEqual(FIXED_ENV);
    // On this machine: `sh` is found in a system folder, by its absolute path.
    const sh = resolveSystemTool('sh');
    expect(sh).toMatchObject({ path: expect.stringMatching(/^\/(usr\/)?s?bin\/sh$/) });
    expect(resolveSystemTool('no-such-tool-mcprt')).toBeNull();
  });

  it('refuses a real group-writable file, naming it, and takes the first folder that has the tool', () => {
    const bad = toolIn('apt-get', 0o775);
    expect(resolveSystemTool('apt-get', [bad])).toEqual({
      refusal: `setup-system: refusing to run ${join(bad, 'apt-get')}: it is writable by its group`,
    });
    const open = toolIn('apt-get', 0o757);
    expect(resolveSystemTool('apt-get', [open])).toEqual({
      refusal: `setup-system: refusing to run ${join(open, 'apt-get')}: it is writable by everyone`,
    });
    // Symlinks are followed: the real file is what is checked, and named.
    const link = tempDir('mcprt-sysdir-');
    symlinkSync(join(bad, 'apt-get'), join(link, 'apt-get'));
    expect(resolveSystemTool('apt-get', [link])).toEqual({
      refusal: `setup-system: refusing to run ${join(link, 'apt-get')} (really ${join(bad, 'apt-get')}): it is writable by its group`,
    });
    // The first folder that has it decides; a later trusted one does not make up for it.
    const good = toolIn('apt-get', 0o755);
    expect(resolveSystemTool('apt-get', ['/nonexistent-mcprt', bad, good])).toHaveProperty(
      'refusal',
    );
    expect(resolveSystemTool('apt-get', ['/nonexistent-mcprt', tempDir('mcprt-sysdir-')])).toBe(
      null,
    );
    const goodFile = join(good, 'apt-get');
    if (IS_ROOT) {
      // A temporary folder made by root (mode 0700) holding a 0755 file is as good as /usr/bin.
      expect(resolveSystemTool('apt-get', ['/nonexistent-mcprt', good])).toEqual({
        path: goodFile,
        real: goodFile,
      });
      chmodSync(good, 0o775);
      expect(resolveSystemTool('apt-get', [good])).toEqual({
        refusal: `setup-system: refusing to run ${goodFile}: its folder ${good} is writable by its group`,
      });
    } else {
      expect(resolveSystemTool('apt-get', [good])).toEqual({
        refusal: `setup-system: refusing to run ${goodFile}: it is owned by uid ${process.getuid?.()}, not root`,
      });
    }
  });

  it('get exactly the fixed environment, whatever the caller has (APT_CONFIG, LD_PRELOAD, PATH)', () => {
    const saved = { ...process.env };
    const planted = tempDir('mcprt-planted-');
    try {
      process.env['APT_CONFIG'] = join(planted, 'apt.conf');
      process.env['LD_PRELOAD'] = join(planted, 'evil.so');
      process.env['PATH'] = `${planted}:${saved['PATH'] ?? ''}`;
      process.env['DEBIAN_FRONTEND'] = 'readline';
      const resolve = (name: string): Resolved => ({
        path: `/usr/bin/${name}`,
        real: `/usr/lib/real/${name}`,
      });
      const direct = systemCommand('apt-get', ['update'], { resolve });
      expect(direct).toEqual({ file: '/usr/lib/real/apt-get', args: ['update'], env: FIXED_ENV });
      const viaSudo = systemCommand('apt-get', ['install', '-y', 'tmux'], { sudo: true, resolve });
      expect(viaSudo).toEqual({
        file: '/usr/lib/real/sudo',
        args: [
          '-n',
          '/usr/lib/real/env',
          '-i',
          'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
          'DEBIAN_FRONTEND=noninteractive',
          '/usr/lib/real/apt-get',
          'install',
          '-y',
          'tmux',
        ],
        env: FIXED_ENV,
      });
      // The real resolver too: whatever it returns is absolute and in a system folder.
      const real = systemCommand('sh', ['-c', 'true']);
      expect(real.env).toEqual(FIXED_ENV);
      expect(real.file).not.toContain(planted);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    expect(() =>
      systemCommand('apt-get', ['update'], { resolve: () => ({ refusal: 'setup-system: no' }) }),
    ).toThrow(/^setup-system: no$/);
    expect(() => systemCommand('apt-get', ['update'], { resolve: () => null })).toThrow(
      'setup-system: apt-get is not in /usr/sbin, /usr/bin, /sbin, /bin',
    );
  });

  it('a real run from a clone under a shared folder never runs the node_modules/.bin tools above it', () => {
    // shared/node_modules/.bin holds another user's apt-get, sudo, ...: each writes a marker.
    const shared = tempDir('mcprt-shared-');
    chmodSync(shared, 0o755);
    const bin = join(shared, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    const markers = join(shared, 'markers');
    mkdirSync(markers);
    chmodSync(markers, 0o777); // writable by whoever a planted tool runs as
    const marker = join(markers, 'ran');
    for (const tool of PLANTED) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 0\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    for (const dir of [join(shared, 'node_modules'), bin]) chmodSync(dir, 0o755);
    // Besides the planted tools, node and every tool the tests need but tmux: tmux is missing, so
    // the setup wants to install (one package, one apt-cache query).
    const nodeDir = join(shared, 'nodebin');
    mkdirSync(nodeDir);
    symlinkSync(NODE, join(nodeDir, 'node'));
    linkTools(nodeDir, ['tmux', ...PLANTED]);
    const clone = join(shared, 'team', 'mcprt');
    mkdirSync(clone, { recursive: true });
    const env = {
      PATH: `${bin}:${nodeDir}`,
      HOME: shared,
      APT_CONFIG: join(shared, 'apt.conf'),
      DEBIAN_FRONTEND: 'readline',
    };
    const run = (args: string[], uid?: number) =>
      spawnSync(NODE, [SCRIPT, ...args], {
        cwd: clone,
        encoding: 'utf8',
        env,
        timeout: 120_000,
        ...(uid === undefined ? {} : { uid, gid: uid }),
      });

    const checked = run(['--check']);
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain('missing: tmux (Debian/Ubuntu package tmux)');

    // --dry-run goes as far as it can (sudo probe, apt-cache queries, the commands it would run
    // as root) without running anything as root.
    const dry = run(['--dry-run']);
    expect(dry.status).toBe(1);
    expect(dry.stderr).not.toContain(shared);
    const wouldRun = dry.stderr.split('\n').filter((l) => l.startsWith('setup-system: would run'));
    for (const line of wouldRun) {
      expect(line).toMatch(/^setup-system: would run \/(usr\/)?s?bin\/\S+ /);
      expect(line).toContain(
        '(environment: PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive)',
      );
    }
    if (wouldRun.length > 0) {
      // On a Debian/Ubuntu machine where it can install: update, then install, nothing run.
      expect(wouldRun).toHaveLength(2);
      expect(wouldRun[0]).toMatch(/apt-get update /);
      expect(wouldRun[1]).toMatch(/apt-get install -y tmux /);
      expect(dry.stderr.trim().split('\n').at(-1)).toBe(
        'system packages: not installing them (--dry-run)',
      );
    }

    // Not root, for real (no --dry-run): it probes sudo from the system folders only; the user
    // has no passwordless sudo there, so it stops without installing.
    // (Unless user nobody cannot reach node or this checkout, as under /root.)
    const nobody = IS_ROOT ? run([], 65534) : null;
    if (nobody !== null && !nobody.error && !/EACCES|Cannot find module/.test(nobody.stderr)) {
      expect(nobody.status).toBe(1);
      expect(nobody.stderr).toContain('missing: tmux (Debian/Ubuntu package tmux)');
      expect(nobody.stderr).not.toContain('apt-get update');
    }

    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  });
});
