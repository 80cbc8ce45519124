/**
 * Whether an invocation means the TUI, decided before any command module is loaded (main.ts
 * loads only the module of the command that runs): the bare `mcprt` on a terminal outside CI, or
 * a TUI option (`--remote`, `--token-file`, `--view`) in place of a command.
 */

import type { Io } from './io.js';

const TUI_OPTIONS = ['--remote', '--token-file', '--view'];

/** True when the bare `mcprt` should open the TUI: stdin and stdout are terminals, not CI. */
export function opensTui(io: Io): boolean {
  const ci = (name: string) => {
    const value = process.env[name];
    return value !== undefined && value !== '0' && value !== 'false';
  };
  return io.isTTY && process.stdin.isTTY === true && !ci('CI') && !ci('CONTINUOUS_INTEGRATION');
}

/** `mcprt --remote …`: a TUI option in place of a command. */
export function isTuiOption(arg: string): boolean {
  return TUI_OPTIONS.some((o) => arg === o || arg.startsWith(`${o}=`));
}
