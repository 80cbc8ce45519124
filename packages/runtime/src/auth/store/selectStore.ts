/**
 * `mcp_oauth_credentials_store = auto|keyring|file`. `file` and `keyring` are what they say (a
 * keyring that does not work is an error on every use, naming the fix). `auto` uses the keyring
 * when it answers and otherwise the file; reads fall back to the file (entries written before the
 * keyring was usable), and a keyring write removes the file entry (Codex).
 *
 * `auto`'s fallback is announced where a credential is actually used (read, written or removed
 * through the file) — never by a command that touches no credential — and at most once per home:
 * the first announcement creates `<home>/.credentials-store-notice` (0600); while it exists the
 * fallback is not announced again. A home it cannot be written to still hears it only once per
 * store (process).
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { OAuthCredentialsStoreMode } from '../../config/types.js';
import { CredentialStoreError } from '../errors.js';
import { CREDENTIALS_FILE_NAME, FileCredentialStore } from './fileStore.js';
import { KeyringCredentialStore } from './keyringStore.js';
import type { CredentialStore, StoredCredential } from './types.js';

/** Exists once `auto`'s fallback to the file was announced for this home (see above). */
export const FALLBACK_NOTICE_FILE_NAME = '.credentials-store-notice';

export interface StoreOptions {
  readonly mode: OAuthCredentialsStoreMode;
  /** The mcprt home: the file store is `<home>/.credentials.json`. */
  readonly home: string;
  /** Reports that `auto` fell back to the file: on first use of a credential, once per home. */
  readonly warn: (message: string) => void;
  /** Test seam: whether the keyring works (default: probe it). */
  readonly probeKeyring?: () => string | null;
}

export function selectCredentialStore(options: StoreOptions): CredentialStore {
  const file = new FileCredentialStore(join(options.home, CREDENTIALS_FILE_NAME));
  if (options.mode === 'file') return file;
  const probe = options.probeKeyring ?? (() => KeyringCredentialStore.probe());
  if (options.mode === 'keyring') return new CheckedKeyringStore(probe);
  return new AutoStore(file, probe, (problem) =>
    announceOnce(
      join(options.home, FALLBACK_NOTICE_FILE_NAME),
      `the OS keyring is not available (${problem}); OAuth credentials are stored in ${file.file} (mode 0600)`,
      options.warn,
    ),
  );
}

/**
 * Say `message` unless the marker says it was said for this home; the marker is created
 * exclusively (two processes racing: one says it). A marker that cannot be written (no home, a
 * read-only one) never silences the message.
 */
function announceOnce(marker: string, message: string, warn: (message: string) => void): void {
  try {
    writeFileSync(
      marker,
      `mcprt announced on ${new Date().toISOString()}: ${message}\nDelete this file to be told again.\n`,
      { mode: 0o600, flag: 'wx' },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
  }
  warn(message);
}

/** `keyring`: refuse clearly when the keychain is not usable. */
class CheckedKeyringStore implements CredentialStore {
  readonly description: string;
  private readonly keyring = new KeyringCredentialStore();
  private problem: string | null | undefined;

  constructor(private readonly probe: () => string | null) {
    this.description = this.keyring.description;
  }

  get(key: string) {
    this.check();
    return this.keyring.get(key);
  }
  set(key: string, record: StoredCredential) {
    this.check();
    this.keyring.set(key, record);
  }
  delete(key: string) {
    this.check();
    return this.keyring.delete(key);
  }

  private check(): void {
    this.problem ??= this.probe();
    if (this.problem !== null) {
      throw new CredentialStoreError(
        `mcp_oauth_credentials_store = "keyring", but the keyring is not available: ${this.problem} (use "auto" or "file")`,
      );
    }
  }
}

/**
 * `auto`: keyring when it works, else the file. Decided once, on first use (or `prepare`); the
 * fallback is announced on the first credential use through the file, not by `prepare`.
 */
class AutoStore implements CredentialStore {
  private keyring: KeyringCredentialStore | null | undefined;
  private problem: string | null = null;
  private announced = false;

  constructor(
    private readonly file: FileCredentialStore,
    private readonly probe: () => string | null,
    private readonly announce: (problem: string) => void,
  ) {}

  get description(): string {
    return this.primary()
      ? `${this.keyring!.description}, falling back to ${this.file.description}`
      : this.file.description;
  }

  get(key: string) {
    return this.used()?.get(key) ?? this.file.get(key);
  }

  async set(key: string, record: StoredCredential): Promise<void> {
    const keyring = this.used();
    if (!keyring) return this.file.set(key, record);
    keyring.set(key, record);
    await this.file.delete(key);
  }

  async delete(key: string): Promise<boolean> {
    const inKeyring = this.used()?.delete(key) ?? false;
    return (await this.file.delete(key)) || inKeyring;
  }

  prepare(): void {
    this.primary();
  }

  /** The keyring for a credential use; without one, the fallback is announced (once). */
  private used(): KeyringCredentialStore | null {
    const keyring = this.primary();
    if (keyring === null && !this.announced) {
      this.announced = true;
      this.announce(this.problem!);
    }
    return keyring;
  }

  private primary(): KeyringCredentialStore | null {
    if (this.keyring === undefined) {
      this.problem = this.probe();
      this.keyring = this.problem === null ? new KeyringCredentialStore() : null;
    }
    return this.keyring;
  }
}
