/**
 * The top-level `sandbox_launcher = "<absolute path>"` key: which executable servers receive as
 * `codex/sandbox-launcher` (see docs/sandbox.md). Absent means mcprt's own executable. A bad value
 * is a warning and makes the setting `invalid`, so no launcher is sent at all: a typo never falls
 * back to another launcher, and a relative name is never looked up on PATH.
 */

import { isAbsolute } from 'node:path';

import type { Fields } from './fields.js';
import type { KeyPath } from './locate.js';
import type { SandboxLauncherSetting } from './types.js';

export const DEFAULT_SANDBOX_LAUNCHER: SandboxLauncherSetting = { kind: 'default' };

/** Why `path` cannot be a launcher path, or null when it can (absolute, UTF-8, no NUL). */
export function launcherPathProblem(path: string): string | null {
  if (path === '') return 'must not be empty';
  if (path.includes('\0')) return 'must not contain NUL characters';
  if (Buffer.from(path, 'utf8').toString('utf8') !== path) return 'is not representable as UTF-8';
  if (!isAbsolute(path)) {
    return `must be an absolute path, got \`${path}\` (launchers are never looked up on PATH)`;
  }
  return null;
}

export function readSandboxLauncher(
  root: Fields,
  warn: (path: KeyPath, problem: string) => void,
): SandboxLauncherSetting {
  if (!root.has('sandbox_launcher')) return DEFAULT_SANDBOX_LAUNCHER;
  const path = root.string('sandbox_launcher');
  if (path === null) {
    return { kind: 'invalid', problem: 'sandbox_launcher is not a string' };
  }
  const problem = launcherPathProblem(path);
  if (problem !== null) {
    warn(root.at('sandbox_launcher'), `sandbox_launcher ${problem}`);
    return { kind: 'invalid', problem: `sandbox_launcher ${problem}` };
  }
  return { kind: 'path', path };
}
