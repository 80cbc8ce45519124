/**
 * What `mcprt sandbox` hides from every sandboxed command, whatever the state's readable and
 * writable roots say (docs/adr/0010-sandboxed-commands-and-host-authority.md): the mcprt home
 * (`$MCPRT_HOME`, `~/.mcprt`: the app-server token, OAuth credentials, history, config), the
 * user's runtime directory (`$XDG_RUNTIME_DIR`, `/run/user/<uid>`: the D-Bus session bus and the
 * keyring, the systemd user manager, agents), and every path the runtime that generated the
 * launcher registered (its home, a `--ws-token-file`, ssh control sockets) through the file
 * named by `$MCPRT_SANDBOX_PROTECT_FILE` — plus that file's own directory, which holds the
 * launcher itself. A hidden path becomes an empty mode-0000 read-only directory or file; rules
 * inside it are dropped, so nothing in the state can expose or write any part of it.
 */

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, sep } from 'node:path';

import { realPathIfAny } from '@mcprt/base';
import { defaultProtectedPaths, SANDBOX_PROTECT_FILE_ENV } from '@mcprt/runtime';

import { unenforceable } from './errors.js';
import type { FsRule, SandboxPlan } from './plan.js';

type BwrapPlan = Extract<SandboxPlan, { kind: 'bwrap' }>;

const ORIGIN = 'mcprt (hidden from sandboxed commands)';

/** The paths to hide, as named (they may not exist). Refuses an unreadable protect list. */
export function protectedPaths(env: NodeJS.ProcessEnv): string[] {
  const paths = defaultProtectedPaths(env);
  const listFile = env[SANDBOX_PROTECT_FILE_ENV];
  if (listFile !== undefined && listFile !== '') {
    if (!isAbsolute(listFile)) {
      throw unenforceable(
        `$${SANDBOX_PROTECT_FILE_ENV} must be an absolute path, got \`${listFile}\``,
      );
    }
    paths.push(dirname(listFile), ...readList(listFile));
  }
  return paths;
}

function readList(file: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw unenforceable(
      `cannot read the paths to hide from $${SANDBOX_PROTECT_FILE_ENV} (${file}): ${(error as Error).message}`,
    );
  }
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string' && isAbsolute(p))) {
    throw unenforceable(`${file} must be a JSON array of absolute paths`);
  }
  return list as string[];
}

const inside = (ancestor: string, path: string) =>
  ancestor === sep || path === ancestor || path.startsWith(`${ancestor}${sep}`);

/**
 * `plan` with every existing protected path denied and every rule at or inside one dropped.
 * Refuses when the sandbox's working directory is inside a protected path.
 */
export function hideProtected(plan: BwrapPlan, paths: readonly string[]): BwrapPlan {
  const hidden = [...new Set(paths.map(realPathIfAny).filter((p): p is string => p !== null))];
  if (hidden.length === 0) return plan;
  const cwd = realPathIfAny(plan.cwd) ?? plan.cwd;
  const around = hidden.find((h) => inside(h, cwd));
  if (around !== undefined) {
    throw unenforceable(
      `the sandbox cwd \`${plan.cwd}\` is inside \`${around}\`, which sandboxed commands must not see`,
    );
  }
  const kept = plan.rules.filter((rule) => {
    const real = realPathIfAny(rule.path);
    return real === null || !hidden.some((h) => inside(h, real));
  });
  const denied: FsRule[] = hidden.map((path) => ({ path, access: 'deny', origin: ORIGIN }));
  return { ...plan, rules: [...kept, ...denied] };
}
