/**
 * `mcp_oauth_credentials_store = auto|keyring|file`. `file` and `keyring` are what they say (a
 * keyring that does not work is an error on every use, naming the fix). `auto` uses the keyring
 * when it answers and otherwise the file, saying so once; reads fall back to the file (entries
 * written before the keyring was usable), and a keyring write removes the file entry (Codex).
 */

import { join } from 'node:path';

import type { OAuthCredentialsStoreMode } from '../../config/types.js';
import { CredentialStoreError } from '../errors.js';
import { CREDENTIALS_FILE_NAME, FileCredentialStore } from './fileStore.js';
import { KeyringCredentialStore } from './keyringStore.js';
import type { CredentialStore, StoredCredential } from './types.js';

export interface StoreOptions {
  readonly mode: OAuthCredentialsStoreMode;
  /** The mcprt home: the file store is `<home>/.credentials.json`. */
  readonly home: string;
  /** Reports, once, that `auto` fell back to the file. */
  readonly warn: (message: string) => void;
  /** Test seam: whether the keyring works (default: probe it). */
  readonly probeKeyring?: () => string | null;
}

export function selectCredentialStore(options: StoreOptions): CredentialStore {
  const file = new FileCredentialStore(join(options.home, CREDENTIALS_FILE_NAME));
  if (options.mode === 'file') return file;
  const probe = options.probeKeyring ?? (() => KeyringCredentialStore.probe());
  if (options.mode === 'keyring') return new CheckedKeyringStore(probe);
  return new AutoStore(file, probe, options.warn);
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

/** `auto`: keyring when it works, else the file. Decided once, on first use. */
class AutoStore implements CredentialStore {
  private keyring: KeyringCredentialStore | null | undefined;

  constructor(
    private readonly file: FileCredentialStore,
    private readonly probe: () => string | null,
    private readonly warn: (message: string) => void,
  ) {}

  get description(): string {
    return this.primary()
      ? `${this.keyring!.description}, falling back to ${this.file.description}`
      : this.file.description;
  }

  get(key: string) {
    return this.primary()?.get(key) ?? this.file.get(key);
  }

  async set(key: string, record: StoredCredential): Promise<void> {
    const keyring = this.primary();
    if (!keyring) return this.file.set(key, record);
    keyring.set(key, record);
    await this.file.delete(key);
  }

  async delete(key: string): Promise<boolean> {
    const inKeyring = this.primary()?.delete(key) ?? false;
    return (await this.file.delete(key)) || inKeyring;
  }

  prepare(): void {
    this.primary();
  }

  private primary(): KeyringCredentialStore | null {
    if (this.keyring === undefined) {
      const problem = this.probe();
      this.keyring = problem === null ? new KeyringCredentialStore() : null;
      if (problem !== null) {
        this.warn(
          `the OS keyring is not available (${problem}); OAuth credentials are stored in ${this.file.file} (mode 0600)`,
        );
      }
    }
    return this.keyring;
  }
}
