// The system tools the test suite needs, and the Debian/Ubuntu packages that provide them: the one
// list `npm test` (scripts/setup-system.mjs) checks and, where it can, installs before any test
// runs (.ci/run calls `npm test`, so CI uses it too). The functions here decide; the CLI acts.
//
// Why each is needed: the ssh tests start a real sshd (by absolute path: /usr/sbin may be missing
// from PATH) and use the OpenSSH client and ssh-keygen; `mcprt sandbox` runs bubblewrap from fixed
// paths (never PATH), so its check is absolute too, and the missing-bubblewrap test hides it in a
// private mount namespace with `unshare`; the TUI's end-to-end test drives the real TUI in tmux;
// the OAuth keyring test runs a real Secret Service (gnome-keyring) on a private D-Bus session bus;
// the gateway's HTTPS tests make their certificates with openssl.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * `tool`: a command looked up on PATH, or an absolute path checked as is. `packages`: what
 * provides it, first choice first (later ones for releases that package it differently).
 */
export const SYSTEM_NEEDS = [
  { tool: 'sh', packages: ['dash'] },
  { tool: 'env', packages: ['coreutils'] },
  { tool: '/usr/sbin/sshd', packages: ['openssh-server'] },
  { tool: 'ssh', packages: ['openssh-client'] },
  { tool: 'ssh-keygen', packages: ['openssh-client'] },
  { tool: '/usr/bin/bwrap', packages: ['bubblewrap'] },
  { tool: 'unshare', packages: ['util-linux'] },
  { tool: 'tmux', packages: ['tmux'] },
  { tool: 'openssl', packages: ['openssl'] },
  // Debian 12 and Ubuntu 24.04 split dbus-daemon out of `dbus`; older releases ship it in `dbus`.
  { tool: 'dbus-daemon', packages: ['dbus-daemon', 'dbus'] },
  { tool: 'gnome-keyring-daemon', packages: ['gnome-keyring'] },
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether `tool` can be run: an absolute path as is, a name somewhere on `path` (PATH). */
export function pathLookup(path = process.env.PATH ?? '') {
  const dirs = path.split(delimiter).filter((d) => d !== '');
  return (tool) =>
    isAbsolute(tool) ? executable(tool) : dirs.some((d) => executable(join(d, tool)));
}

/** The needs whose tool is not there, per `lookup`. */
export function missingNeeds(lookup, needs = SYSTEM_NEEDS) {
  return needs.filter((need) => !lookup(need.tool));
}

/** True for Debian, Ubuntu and their derivatives (`ID` / `ID_LIKE` of /etc/os-release). */
export function isDebianLike(osRelease) {
  if (osRelease === null) return false;
  const field = (name) =>
    new RegExp(`^${name}=("?)([^"\\n]*)\\1$`, 'm')
      .exec(osRelease)?.[2]
      ?.toLowerCase()
      .split(/\s+/) ?? [];
  return [...field('ID'), ...field('ID_LIKE')].some((id) => id === 'debian' || id === 'ubuntu');
}

/** One line per missing tool, naming the package that provides it. */
export function missingLines(missing) {
  return missing.map(
    (need) => `missing: ${need.tool} (Debian/Ubuntu package ${need.packages.join(' or ')})`,
  );
}

/**
 * What to do about `missing`: nothing, install (as root directly or through passwordless sudo,
 * on Debian/Ubuntu with apt-get), or stop with one line per missing tool and why it was not
 * installed.
 * @param {{ missing: typeof SYSTEM_NEEDS, osRelease: string | null, isRoot: boolean,
 *   sudo: boolean, aptGet: boolean, installAllowed: boolean }} facts
 * @returns {{ action: 'none' } | { action: 'install', sudo: boolean } | { action: 'stop', lines: string[] }}
 */
export function decide({ missing, osRelease, isRoot, sudo, aptGet, installAllowed }) {
  if (missing.length === 0) return { action: 'none' };
  const lines = missingLines(missing);
  let why = null;
  if (!installAllowed) why = 'not installing them (--check)';
  else if (!isDebianLike(osRelease)) why = 'install them with your system package manager';
  else if (!aptGet) why = 'apt-get is not on PATH: install them yourself';
  else if (!isRoot && !sudo)
    why =
      'run `npm test` as root or with passwordless sudo to have it install them, or install them yourself';
  if (why !== null) return { action: 'stop', lines: [...lines, `system packages: ${why}`] };
  return { action: 'install', sudo: !isRoot };
}

/**
 * The packages to install for `missing`: for each need, the first of its packages that
 * `available` says the package manager knows (the first one if none is known, so apt-get names
 * it in its error); each package once.
 */
export function packagesToInstall(missing, available) {
  const out = [];
  for (const need of missing) {
    const pkg = need.packages.find((p) => available(p)) ?? need.packages[0];
    if (!out.includes(pkg)) out.push(pkg);
  }
  return out;
}

/** /etc/os-release, or null where there is none. */
export function readOsRelease(readFile, path = '/etc/os-release') {
  if (!existsSync(path)) return null;
  try {
    return readFile(path, 'utf8');
  } catch {
    return null;
  }
}
