/**
 * Output seam for commands: everything a command prints goes through `Io`, so tests can run
 * commands in-process and read exactly what a person would see.
 */

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTTY: process.stdout.isTTY === true,
};
