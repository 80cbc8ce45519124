/**
 * An inter-process lock file that never blocks the event loop: `<file>.lock` is created with
 * O_EXCL (mode 0600) and removed on release; a waiter polls asynchronously until it can create it
 * or gives up. A lock file older than `staleMs` is taken to be left by a process that died while
 * holding it, and is removed. Meant for short critical sections (a read-modify-write of a small
 * file), where holding the lock for `staleMs` means its holder is gone.
 */

import { rm, open, stat, unlink } from 'node:fs/promises';

export interface FileLockOptions {
  /** How long to wait for another holder, in ms (default 5000). */
  readonly waitMs?: number;
  /** Age after which a lock file is considered abandoned, in ms (default 30000). */
  readonly staleMs?: number;
  /** Poll interval while waiting, in ms (default 25). */
  readonly retryMs?: number;
}

/** The lock was still held by someone else after `waitMs`. */
export class FileLockTimeoutError extends Error {
  constructor(readonly lockFile: string) {
    super(`${lockFile} is held by another process`);
    this.name = 'FileLockTimeoutError';
  }
}

/**
 * Take the lock file; resolves with its release function (idempotent). Rejects with
 * `FileLockTimeoutError` after `waitMs`, or with the file system's error (e.g. EACCES).
 */
export async function acquireFileLock(
  lockFile: string,
  options: FileLockOptions = {},
): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.waitMs ?? 5_000);
  const staleMs = options.staleMs ?? 30_000;
  for (;;) {
    try {
      await (await open(lockFile, 'wx', 0o600)).close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await unlink(lockFile).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const mtime = await stat(lockFile).then(
      (s) => s.mtimeMs,
      () => null,
    );
    if (mtime !== null && Date.now() - mtime > staleMs) {
      await rm(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new FileLockTimeoutError(lockFile);
    await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 25));
  }
}

/** Run `critical` while holding the lock file; the lock is released however it ends. */
export async function withFileLock<T>(
  lockFile: string,
  critical: () => T | Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const release = await acquireFileLock(lockFile, options);
  try {
    return await critical();
  } finally {
    await release();
  }
}
