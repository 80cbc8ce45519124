/**
 * Running commands under the host's sandbox: `launcherCommand` builds
 * `<launcher> sandbox --sandbox-state-json <state> -- <cmd> [args...]`, and `requireLauncher`
 * fails closed — it throws unless the call carries a launcher, or the operator has explicitly
 * opted out (then commands run as is, marked `sandboxed: false`). It never looks for a launcher
 * on PATH and never falls back silently.
 */

import type { SandboxAuthority } from './authority.js';

/** A command line ready for `child_process.spawn(file, args)`. */
export interface CommandLine {
  readonly file: string;
  readonly args: readonly string[];
  /** False only when the operator opted out of the launcher. */
  readonly sandboxed: boolean;
}

export interface RequireLauncherOptions {
  /**
   * The operator's explicit opt-out (for example a `--allow-unsandboxed` flag): without a
   * launcher, run commands directly instead of refusing. Never set this by default.
   */
  readonly allowUnsandboxed?: boolean;
}

export class LauncherRequiredError extends Error {
  readonly code = 'sandbox_launcher_required';
  constructor(message: string) {
    super(message);
    this.name = 'LauncherRequiredError';
  }
}

/** `<launcher> sandbox --sandbox-state-json <state> -- <command> [args...]`. */
export function launcherCommand(
  launcher: string,
  state: unknown,
  command: string,
  args: readonly string[] = [],
): CommandLine {
  return {
    file: launcher,
    args: ['sandbox', '--sandbox-state-json', JSON.stringify(state), '--', command, ...args],
    sandboxed: true,
  };
}

/** Builds command lines for one call's authority. */
export interface Launcher {
  readonly authority: SandboxAuthority | null;
  command(command: string, args?: readonly string[]): CommandLine;
}

/**
 * A launcher for this call's authority. Throws {@link LauncherRequiredError} when the call
 * carries no sandbox state or no launcher, unless `allowUnsandboxed` is set.
 */
export function requireLauncher(
  authority: SandboxAuthority | null,
  options: RequireLauncherOptions = {},
): Launcher {
  if (authority !== null && authority.launcher !== null) {
    const { launcher, state } = authority;
    return { authority, command: (cmd, args = []) => launcherCommand(launcher, state, cmd, args) };
  }
  if (options.allowUnsandboxed === true) {
    return { authority, command: (cmd, args = []) => ({ file: cmd, args, sandboxed: false }) };
  }
  throw new LauncherRequiredError(
    authority === null
      ? 'refusing to run a command: the host sent no sandbox state (codex/sandbox-state) with this call'
      : 'refusing to run a command: the host sent no sandbox launcher (codex/sandbox-launcher) with this call',
  );
}
