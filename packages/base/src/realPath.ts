/**
 * `realPathIfAny`: a path with its symlinks resolved, or null when it cannot be (a missing file,
 * a dangling link). The CLI names a config by its real path (serveChain.ts), the sandbox compares
 * real paths (secrets.ts), and config edits write through a link to its target (edit.ts); each
 * falls back its own way when there is nothing to resolve.
 */

import { realpathSync } from 'node:fs';

export function realPathIfAny(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
