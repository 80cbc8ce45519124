/**
 * Files only this user may touch: the writer of small secret files (`@mcprt/base`'s atomic write:
 * a new file opened exclusively with mode 0600 in the target's directory, synced, then renamed
 * over the target — so a symlink or hard link planted at the target is replaced, never written
 * through) and the check
 * that a directory or secret file is private (owned by this user or root; not writable — and for
 * secret files not readable — by group or others). Errors are `UnsafePathError` with one
 * sentence a person can act on.
 */

import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

import { writeFileAtomicSync } from '@mcprt/base';

export class UnsafePathError extends Error {
  readonly code = 'unsafe_path';
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnsafePathError';
    this.path = path;
  }
}

/**
 * Write `text` to `file` as a new 0600 file: created exclusively (`wx`, never following a
 * symlink) beside it, synced, then renamed into place. The directory is created 0700 if missing.
 */
export function writePrivateFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, text, { mode: 0o600 });
}

export interface PrivatePathOptions {
  /** How the path is named in messages (`the mcprt home`, `the --ws-token-file`). */
  readonly what: string;
  /** A secret file: group and others may not read it either (default: only not write). */
  readonly secret?: boolean;
  /** This process's uid (default `process.getuid()`); checks are skipped where there is none. */
  readonly uid?: number;
}

/**
 * Throw `UnsafePathError` unless `path` (followed through symlinks) is owned by this user or
 * root and is not writable — for secrets, not accessible at all — by group or others. A path
 * that does not exist passes (whoever creates it creates it private).
 */
export function assertPrivatePath(path: string, options: PrivatePathOptions): void {
  const uid = options.uid ?? process.getuid?.();
  if (uid === undefined) return; // Windows: no POSIX owners and modes
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return;
  }
  if (stat.uid !== uid && stat.uid !== 0) {
    throw new UnsafePathError(
      path,
      `refusing to use ${options.what} ${path}: it is owned by uid ${stat.uid}, not by you (uid ${uid})`,
    );
  }
  const mode = stat.mode & 0o777;
  const octal = mode.toString(8).padStart(4, '0');
  if (options.secret === true && (mode & 0o077) !== 0) {
    throw new UnsafePathError(
      path,
      `refusing to use ${options.what} ${path}: other users can read or write it (mode ${octal}); run \`chmod 600 ${path}\``,
    );
  }
  if ((mode & 0o022) !== 0) {
    throw new UnsafePathError(
      path,
      `refusing to use ${options.what} ${path}: other users can write to it (mode ${octal}); run \`chmod go-w ${path}\``,
    );
  }
}
