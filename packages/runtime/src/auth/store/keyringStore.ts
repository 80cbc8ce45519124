/**
 * The OS keychain token store through `@napi-rs/keyring` (macOS Keychain, Windows Credential
 * Manager, the Secret Service on Linux). One entry per credential key under the service
 * `mcprt MCP Credentials`, holding the record as JSON. On Linux the entry is pinned to the Secret
 * Service: the kernel keyring that keyring-rs would fall back to forgets everything at reboot.
 * `probe()` tells whether the keychain is usable here (a headless box has no Secret Service).
 */

import { createRequire } from 'node:module';

import { CredentialStoreError } from '../errors.js';
import type { CredentialStore, StoredCredential } from './types.js';

export const KEYRING_SERVICE = 'mcprt MCP Credentials';

interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}

type EntryConstructor = new (
  service: string,
  account: string,
  options?: { linux?: { store?: 'secret-service' | 'keyutils' } },
) => KeyringEntry;

let loaded: { Entry: EntryConstructor } | Error | undefined;

/** The native module, loaded on first use (a platform without a binary is an error, not a crash). */
function keyringModule(): { Entry: EntryConstructor } {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: EntryConstructor };
    } catch (error) {
      loaded = error instanceof Error ? error : new Error(String(error));
    }
  }
  if (loaded instanceof Error) throw loaded;
  return loaded;
}

export class KeyringCredentialStore implements CredentialStore {
  readonly description = `keyring (service "${KEYRING_SERVICE}")`;

  /** Null when the keychain answers; otherwise why it cannot be used. */
  static probe(): string | null {
    try {
      new KeyringCredentialStore().entry('mcprt-keyring-probe').getPassword();
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  get(key: string): StoredCredential | null {
    const text = this.run('read', key, (e) => e.getPassword());
    if (text === null) return null;
    try {
      return JSON.parse(text) as StoredCredential;
    } catch {
      throw new CredentialStoreError(`keyring entry for ${key} is not valid JSON`);
    }
  }

  set(key: string, record: StoredCredential): void {
    this.run('write', key, (e) => e.setPassword(JSON.stringify(record)));
  }

  delete(key: string): boolean {
    return this.run('delete', key, (e) => e.deletePassword());
  }

  private entry(key: string): KeyringEntry {
    const { Entry } = keyringModule();
    return process.platform === 'linux'
      ? new Entry(KEYRING_SERVICE, key, { linux: { store: 'secret-service' } })
      : new Entry(KEYRING_SERVICE, key);
  }

  private run<T>(what: string, key: string, op: (entry: KeyringEntry) => T): T {
    try {
      return op(this.entry(key));
    } catch (error) {
      throw new CredentialStoreError(
        `cannot ${what} OAuth credentials for ${key} in the keyring: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
}
