/**
 * The file token store: `$MCPRT_HOME/.credentials.json`, one JSON object keyed by credential key
 * (Codex's layout). Every write is read-modify-write under a lock file, then written to a
 * temporary file created with mode 0600 and renamed over the old one, so the file is never
 * half-written, never readable by others, and two processes (a CLI login and a running
 * app-server) never lose each other's updates. The file is removed when it becomes empty. A file
 * that is not valid JSON is reported and never overwritten.
 */

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

import { CredentialStoreError } from '../errors.js';
import type { CredentialStore, StoredCredential } from './types.js';

export const CREDENTIALS_FILE_NAME = '.credentials.json';

const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 30_000;

export class FileCredentialStore implements CredentialStore {
  readonly description: string;

  constructor(readonly file: string) {
    this.description = `file ${file}`;
  }

  get(key: string): StoredCredential | null {
    return this.readAll()[key] ?? null;
  }

  set(key: string, record: StoredCredential): void {
    this.update((all) => {
      all[key] = record;
      return true;
    });
  }

  delete(key: string): boolean {
    let removed = false;
    this.update((all) => {
      removed = key in all;
      delete all[key];
      return removed;
    });
    return removed;
  }

  private readAll(): Record<string, StoredCredential> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new CredentialStoreError(
        `cannot read OAuth credentials file ${this.file}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // JSON.parse's message quotes the input, which may hold tokens: never pass it on.
      throw new CredentialStoreError(
        `OAuth credentials file ${this.file} is not valid JSON; fix or remove it (it was left unchanged)`,
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new CredentialStoreError(
        `OAuth credentials file ${this.file} must hold a JSON object; fix or remove it (it was left unchanged)`,
      );
    }
    return parsed as Record<string, StoredCredential>;
  }

  private update(change: (all: Record<string, StoredCredential>) => boolean): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const release = this.lock();
    try {
      const all = this.readAll();
      if (!change(all)) return;
      if (Object.keys(all).length === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(all, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      try {
        renameSync(tmp, this.file);
      } catch (error) {
        rmSync(tmp, { force: true });
        throw error;
      }
    } catch (error) {
      if (error instanceof CredentialStoreError) throw error;
      throw new CredentialStoreError(
        `cannot write OAuth credentials file ${this.file}: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      release();
    }
  }

  /** An exclusive lock file next to the store; a lock older than 30 s is considered stale. */
  private lock(): () => void {
    const lockFile = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(lockFile, 'wx', 0o600));
        return () => {
          try {
            unlinkSync(lockFile);
          } catch {
            // already gone
          }
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new CredentialStoreError(
            `cannot lock OAuth credentials file ${this.file}: ${(error as Error).message}`,
            { cause: error },
          );
        }
        if (existsSync(lockFile) && Date.now() - mtimeOf(lockFile) > LOCK_STALE_MS) {
          rmSync(lockFile, { force: true });
          continue;
        }
        if (Date.now() > deadline) {
          throw new CredentialStoreError(
            `OAuth credentials file ${this.file} is locked by another process (${lockFile})`,
          );
        }
        sleepSync(25);
      }
    }
  }
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
