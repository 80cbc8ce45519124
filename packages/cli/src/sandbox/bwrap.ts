/**
 * Bubblewrap: where it is (fixed absolute locations only — never a PATH search, so a command's
 * environment cannot substitute another program) and the argv that enforces a plan. Mounts are
 * applied from the shallowest path to the deepest, so the most specific rule wins; at the same
 * path the most restrictive does (deny, then read, then write). Denied directories become empty
 * mode-0000 read-only tmpfs, denied files empty mode-0000 read-only files. Every sandbox drops
 * all capabilities (as root, bubblewrap keeps them otherwise, and they would allow remounting
 * read-only binds writable), unshares every namespace except the network when it is enabled,
 * dies with its parent and runs in a new session.
 */

import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

import { SandboxRefusal, unenforceable } from './errors.js';
import type { FsAccess, FsRule } from './plan.js';

export const BWRAP_LOCATIONS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'] as const;

/** File descriptor bubblewrap reads empty content from (the caller opens /dev/null there). */
export const EMPTY_FD = 3;

export function findBwrap(locations: readonly string[] = BWRAP_LOCATIONS): string {
  for (const path of locations) {
    try {
      if (!statSync(path).isFile()) continue;
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not there: try the next location
    }
  }
  throw new SandboxRefusal(
    'bubblewrap_missing',
    `bubblewrap (bwrap) is not installed: looked in ${locations.join(', ')} (install the \`bubblewrap\` package)`,
  );
}

const RANK: Record<FsAccess, number> = { deny: 3, read: 2, write: 1 };

interface Mount {
  readonly path: string;
  readonly access: FsAccess;
  readonly isDir: boolean;
}

function resolveRules(rules: readonly FsRule[]): Mount[] {
  const writable = rules.filter((r) => r.access === 'write').map((r) => r.path);
  const byPath = new Map<string, Mount>();
  for (const rule of rules) {
    let real: string;
    try {
      real = realpathSync(rule.path);
    } catch {
      if (rule.access === 'deny' && writable.some((w) => contains(w, rule.path))) {
        throw unenforceable(
          `${rule.origin}: cannot deny \`${rule.path}\`: it does not exist and a writable root contains it`,
        );
      }
      continue; // nothing to read, write or hide
    }
    const mount = { path: real, access: rule.access, isDir: statSync(real).isDirectory() };
    const existing = byPath.get(real);
    if (existing === undefined || RANK[mount.access] > RANK[existing.access]) {
      byPath.set(real, mount);
    }
  }
  return [...byPath.values()].sort((a, b) => depth(a.path) - depth(b.path));
}

const depth = (path: string) => (path === sep ? 0 : path.split(sep).length - 1);

function contains(ancestor: string, path: string): boolean {
  if (ancestor === sep) return true;
  return path === ancestor || path.startsWith(`${ancestor}${sep}`);
}

/** bubblewrap's arguments (without the program) for these rules, network and cwd. */
export function bwrapArgs(
  plan: { readonly rules: readonly FsRule[]; readonly network: boolean; readonly cwd: string },
  command: readonly string[],
): string[] {
  const args: string[] = [];
  const remount: string[] = [];
  const mounts = resolveRules(plan.rules);
  const root = mounts[0]?.path === sep ? mounts.shift() : undefined;
  if (root?.access === 'deny') throw unenforceable('denying `/` leaves nothing to run');
  if (root !== undefined) args.push(root.access === 'write' ? '--bind' : '--ro-bind', '/', '/');
  args.push('--dev', '/dev', '--proc', '/proc');
  for (const m of mounts) {
    if (m.access === 'read') args.push('--ro-bind', m.path, m.path);
    else if (m.access === 'write') args.push('--bind', m.path, m.path);
    else if (m.isDir) {
      args.push('--perms', '0000', '--tmpfs', m.path);
      remount.push('--remount-ro', m.path);
    } else {
      args.push('--perms', '0000', '--ro-bind-data', String(EMPTY_FD), m.path);
    }
  }
  args.push(...remount);
  args.push('--unshare-all');
  if (plan.network) args.push('--share-net');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', plan.cwd);
  args.push('--', ...command);
  return args;
}
