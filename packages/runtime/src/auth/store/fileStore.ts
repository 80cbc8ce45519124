/**
 * The file token store: `$MCPRT_HOME/.credentials.json`, one JSON object keyed by credential key
 * (Codex's layout). Every write is read-modify-write under a lock file (waited for without
 * blocking the event loop), then written atomically with mode 0600, so the file is never
 * half-written, never readable by others, and two processes (a CLI login and a running
 * app-server) never lose each other's updates. The file is removed when it becomes empty. A file
 * that is not valid JSON is reported and never overwritten.
 */

import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { acquireFileLock, FileLockTimeoutError, writeFileAtomicSync } from '@mcprt/base';

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

  async set(key: string, record: StoredCredential): Promise<void> {
    await this.update((all) => {
      all[key] = record;
      return true;
    });
  }

  async delete(key: string): Promise<boolean> {
    let removed = false;
    await this.update((all) => {
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

  private async update(change: (all: Record<string, StoredCredential>) => boolean): Promise<void> {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const all = this.readAll();
      if (!change(all)) return;
      if (Object.keys(all).length === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      writeFileAtomicSync(this.file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      if (error instanceof CredentialStoreError) throw error;
      throw new CredentialStoreError(
        `cannot write OAuth credentials file ${this.file}: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      await release();
    }
  }

  /**
   * An exclusive lock file next to the store, waited for without blocking the event loop; a lock
   * older than 30 s is considered stale.
   */
  private async lock(): Promise<() => Promise<void>> {
    const lockFile = `${this.file}.lock`;
    try {
      return await acquireFileLock(lockFile, { waitMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS });
    } catch (error) {
      if (error instanceof FileLockTimeoutError) {
        throw new CredentialStoreError(
          `OAuth credentials file ${this.file} is locked by another process (${lockFile})`,
        );
      }
      throw new CredentialStoreError(
        `cannot lock OAuth credentials file ${this.file}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}
