// The system tools the test suite needs, and the Debian/Ubuntu packages that provide them: the one
// list `npm test` (scripts/setup-system.mjs) checks and, where it can, installs before any test
// runs (.ci/run calls `npm test`, so CI uses it too). The functions here decide; the CLI acts.
//
// Why each is needed: the ssh tests start a real sshd (by absolute path: /usr/sbin may be missing
// from PATH) and use the OpenSSH client and ssh-keygen; `mcprt sandbox` runs bubblewrap from fixed
// paths (never PATH), so its check is absolute too, and the missing-bubblewrap test hides it in a
// private mount namespace with `unshare`; the TUI's end-to-end test drives the real TUI in tmux;
// the OAuth keyring test runs a real Secret Service (gnome-keyring) on a private D-Bus session bus;
// the gateway's HTTPS tests make their certificates with openssl; the replica tests put HAProxy
// (by absolute path, like sshd) in front of several gateways with deploy/haproxy.cfg.
//
// What runs as root is never looked up on the caller's PATH: under `npm test`, npm puts the
// node_modules/.bin of the checkout and of every folder above it ahead of /usr/bin, and the
// caller's environment may carry APT_CONFIG, LD_PRELOAD and the like. So every program the setup
// runs is resolved to an absolute path in SYSTEM_DIRS, accepted only if it and its folder (real
// paths) are owned by root and writable by no one else, and run with exactly TOOL_ENV.
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';

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
  { tool: '/usr/sbin/haproxy', packages: ['haproxy'] },
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether `tool` can be run: an absolute path as is, a name somewhere on `path` (PATH). For
 * detecting the tools the tests need only: nothing found this way is ever run by the setup.
 */
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
 * on Debian/Ubuntu with apt-get in a system folder), or stop with one line per missing tool and why it was not
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
  else if (!aptGet) why = `apt-get is not in ${SYSTEM_DIRS.join(', ')}: install them yourself`;
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

/** The only folders the programs the setup runs are taken from, in this order. */
export const SYSTEM_DIRS = Object.freeze(['/usr/sbin', '/usr/bin', '/sbin', '/bin']);

/** The whole environment of every program the setup runs; nothing of the caller's. */
export const TOOL_ENV = Object.freeze({
  PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
  DEBIAN_FRONTEND: 'noninteractive',
});

function ownerModeProblem({ uid, mode }, subject) {
  if (mode & 0o002) return `${subject} writable by everyone`;
  if (mode & 0o020) return `${subject} writable by its group`;
  if (uid !== 0) return `${subject} owned by uid ${uid}, not root`;
  return null;
}

/**
 * Why a program must not be run as root, from the stat facts of its real path and of the folder
 * that holds it; null when it may: both owned by root (uid 0) and writable by neither group nor
 * others, the program a regular file someone may execute.
 * @param {{ uid: number, mode: number, isFile: boolean }} file
 * @param {{ uid: number, mode: number }} folder
 * @param {string} folderPath named in the reason
 */
export function toolProblem(file, folder, folderPath) {
  if (!file.isFile) return 'it is not a regular file';
  if ((file.mode & 0o111) === 0) return 'it is not executable';
  return ownerModeProblem(file, 'it is') ?? ownerModeProblem(folder, `its folder ${folderPath} is`);
}

/**
 * System program `name` from the first of `dirs` that has it (symlinks followed, the real path
 * and its folder checked with toolProblem): `{ path, real }` to run, `{ refusal }` (one line
 * naming the file and why) when that first one fails the checks, null when no folder has it.
 * `dirs` is for the tests; the setup always uses SYSTEM_DIRS.
 * @returns {{ path: string, real: string } | { refusal: string } | null}
 */
export function resolveSystemTool(name, dirs = SYSTEM_DIRS) {
  for (const dir of dirs) {
    const path = join(dir, name);
    let real;
    let file;
    let folder;
    try {
      real = realpathSync(path);
      file = statSync(real);
      folder = statSync(dirname(real));
    } catch {
      continue;
    }
    const facts = (s) => ({ uid: s.uid, mode: s.mode, isFile: s.isFile() });
    const problem = toolProblem(facts(file), facts(folder), dirname(real));
    if (problem === null) return { path, real };
    const shown = real === path ? path : `${path} (really ${real})`;
    return { refusal: `setup-system: refusing to run ${shown}: ${problem}` };
  }
  return null;
}

/**
 * How to run system program `tool` with `args`: by its checked absolute path, with exactly
 * TOOL_ENV, through sudo (itself resolved the same way, the environment set again inside with
 * `env -i`) when `sudo`. Throws an Error whose message is the line to print when a program is not
 * in a system folder or is refused. `resolve` is for the tests.
 * @returns {{ file: string, args: string[], env: Record<string, string> }}
 */
export function systemCommand(tool, args, { sudo = false, resolve = resolveSystemTool } = {}) {
  const path = (name) => {
    const found = resolve(name);
    if (found === null)
      throw new Error(`setup-system: ${name} is not in ${SYSTEM_DIRS.join(', ')}`);
    if ('refusal' in found) throw new Error(found.refusal);
    return found.real;
  };
  const env = { ...TOOL_ENV };
  if (!sudo) return { file: path(tool), args: [...args], env };
  const assignments = Object.entries(TOOL_ENV).map(([k, v]) => `${k}=${v}`);
  return {
    file: path('sudo'),
    args: ['-n', path('env'), '-i', ...assignments, path(tool), ...args],
    env,
  };
}
