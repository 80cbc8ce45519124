/**
 * Which launcher, if any, a local stdio server receives: the configured `sandbox_launcher` or
 * mcprt's own executable, and only when the path is absolute, UTF-8 and passed the probe. Every
 * other case yields null and the `codex/sandbox-launcher` key is omitted — never a PATH search,
 * never a fallback to another launcher.
 */

import { launcherPathProblem } from '../config/sandboxLauncher.js';
import type { SandboxLauncherSetting } from '../config/types.js';
import { defaultLauncherPath } from './defaultLauncher.js';
import type { LauncherMeta } from './meta.js';
import { verifyLauncher } from './probe.js';

export async function resolveLauncher(
  setting: SandboxLauncherSetting,
): Promise<LauncherMeta | null> {
  let path: string | null;
  switch (setting.kind) {
    case 'invalid':
      return null;
    case 'path':
      path = setting.path;
      break;
    case 'default':
      path = defaultLauncherPath();
      break;
  }
  if (path === null || launcherPathProblem(path) !== null) return null;
  const outcome = await verifyLauncher(path);
  return outcome.ok ? { codexExecutable: path } : null;
}
