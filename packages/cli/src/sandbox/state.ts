/**
 * `--sandbox-state-json` to a {@link SandboxPlan}: parses the JSON, resolves `sandboxCwd`
 * (a `file://` URL or an absolute path; the launcher's cwd when absent) and dispatches on the
 * shape — `permissionProfile` (Codex's current shape, preferred when both are present, as Codex's
 * own launcher reads it) or `sandboxPolicy`. Anything else is refused. Other top-level fields
 * (`codexLinuxSandboxExe`, `useLegacyLandlock`, …) are accepted and ignored.
 */

import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

import { unenforceable } from './errors.js';
import { planFromPermissionProfile } from './permissionProfile.js';
import type { LauncherContext, SandboxPlan } from './plan.js';
import { describe, isObject } from './reader.js';
import { planFromSandboxPolicy } from './sandboxPolicy.js';

export function planFromStateJson(text: string, ctx: LauncherContext): SandboxPlan {
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw unenforceable(`--sandbox-state-json is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(state))
    throw unenforceable(`the state must be a JSON object, got ${describe(state)}`);
  const cwd = sandboxCwd(state['sandboxCwd'], ctx);
  if (state['permissionProfile'] !== undefined && state['permissionProfile'] !== null) {
    return planFromPermissionProfile(state['permissionProfile'], cwd, ctx);
  }
  if (state['sandboxPolicy'] !== undefined && state['sandboxPolicy'] !== null) {
    return planFromSandboxPolicy(state['sandboxPolicy'], cwd, ctx);
  }
  throw unenforceable('the state has neither `permissionProfile` nor `sandboxPolicy`');
}

function sandboxCwd(raw: unknown, ctx: LauncherContext): string {
  if (raw === undefined || raw === null) return ctx.cwd;
  if (typeof raw !== 'string') {
    throw unenforceable(`sandboxCwd must be a string, got ${describe(raw)}`);
  }
  if (raw.startsWith('file:')) {
    try {
      return fileURLToPath(raw);
    } catch (error) {
      throw unenforceable(`sandboxCwd \`${raw}\` is not a file URL: ${(error as Error).message}`);
    }
  }
  if (!isAbsolute(raw)) {
    throw unenforceable(`sandboxCwd must be a file:// URL or an absolute path, got \`${raw}\``);
  }
  return raw;
}
