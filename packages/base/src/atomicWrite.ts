/**
 * Atomic file replacement, the one of mcprt (`config.toml` edits, the OAuth credentials file):
 * the data goes to a temporary file in the same directory, created exclusively with the target's
 * mode, flushed to disk, then renamed over the target. A reader sees the old file or the new one,
 * never half of one; a failure removes the temporary file and leaves the target as it was.
 */

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits of the written file (default 0o600); set explicitly, whatever the umask. */
  readonly mode?: number;
  /**
   * Runs once the temporary file is complete, just before the rename; throwing aborts the write
   * (e.g. the target changed since it was read).
   */
  readonly beforeRename?: () => void;
}

/** Replace `file` with `data` atomically; throws the file system's error (nothing is changed). */
export function writeFileAtomicSync(
  file: string,
  data: string,
  options: AtomicWriteOptions = {},
): void {
  const mode = options.mode ?? 0o600;
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, 'wx', mode);
    writeSync(fd, data);
    fchmodSync(fd, mode);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    options.beforeRename?.();
    renameSync(temp, file);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Not created, or already renamed.
    }
    throw error;
  }
}
