/**
 * `@mcprt/sandbox-helper`: for MCP servers that run commands on the host's behalf. Advertise
 * {@link SANDBOX_CAPABILITIES}, read each call's authority with `readSandboxAuthority(ctx._meta)`,
 * run commands through `requireLauncher(authority).command(...)`, and keep workers and cached
 * results in an `AuthoritySlot` / `AuthorityCache` so a changed authority is never reused.
 * See docs/sandbox.md.
 */

export {
  SANDBOX_CAPABILITIES,
  SANDBOX_LAUNCHER_KEY,
  SANDBOX_STATE_KEY,
  SANDBOX_STATE_META_KEY,
} from './keys.js';
export type { SandboxAuthority } from './authority.js';
export { readSandboxAuthority, sameAuthority } from './authority.js';
export type { CommandLine, Launcher, RequireLauncherOptions } from './launcher.js';
export { launcherCommand, LauncherRequiredError, requireLauncher } from './launcher.js';
export type { SlotResult } from './binding.js';
export { AuthorityBound, AuthorityCache, AuthorityChangedError, AuthoritySlot } from './binding.js';
