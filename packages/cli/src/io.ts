/**
 * Output seam for commands: everything a command prints goes through `Io`, so tests can run
 * commands in-process and read exactly what a person would see. What reaches the process's
 * stdout and stderr is sanitised like the TUI's screen (the SDK's `sanitizeTerminalText`): much of
 * it is server-controlled (stderr, errors, results), and terminal escapes in it must never reach
 * the terminal.
 */

import { sanitizeTerminalText } from '@mcprt/sdk';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
}

/** One line-terminated, terminal-safe text. */
function printable(text: string): string {
  const safe = sanitizeTerminalText(text, { newlines: true });
  return safe.endsWith('\n') ? safe : `${safe}\n`;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(printable(text)),
  err: (text) => process.stderr.write(printable(text)),
  isTTY: process.stdout.isTTY === true,
};
