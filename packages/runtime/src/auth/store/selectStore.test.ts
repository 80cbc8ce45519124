import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { KeyringCredentialStore } from './keyringStore.js';
import { FALLBACK_NOTICE_FILE_NAME, selectCredentialStore } from './selectStore.js';
import type { StoredCredential } from './types.js';

const record: StoredCredential = {
  server_name: 'docs',
  environment_id: null,
  server_url: 'http://127.0.0.1:1/mcp',
  client_id: 'client',
  client: { client_id: 'client' },
  access_token: 'token-aaaaaaaa',
  scopes: [],
};

describe('mcp_oauth_credentials_store', () => {
  it('auto falls back to the file when the keyring does not answer, and says so once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcprt-store-'));
    const warnings: string[] = [];
    const store = selectCredentialStore({
      mode: 'auto',
      home,
      warn: (m) => warnings.push(m),
      probeKeyring: () => 'no Secret Service on this machine',
    });
    await store.set('a', record);
    store.get('a');
    await store.delete('a');
    expect(warnings).toEqual([
      `the OS keyring is not available (no Secret Service on this machine); OAuth credentials are stored in ${join(home, '.credentials.json')} (mode 0600)`,
    ]);
    expect(store.description).toBe(`file ${join(home, '.credentials.json')}`);
  });

  it('auto announces the fallback on first credential use, not on prepare, once per home', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcprt-store-'));
    const warnings: string[] = [];
    const open = () =>
      selectCredentialStore({
        mode: 'auto',
        home,
        warn: (m) => warnings.push(m),
        probeKeyring: () => 'no Secret Service on this machine',
      });
    const first = open();
    first.prepare?.();
    expect(warnings).toEqual([]);
    expect(first.get('a')).toBeNull();
    expect(warnings).toHaveLength(1);
    const marker = join(home, FALLBACK_NOTICE_FILE_NAME);
    expect(statSync(marker).mode & 0o777).toBe(0o600);
    await open().set('a', record); // another process, same home: already told
    expect(warnings).toHaveLength(1);
    rmSync(marker);
    open().get('a');
    expect(warnings).toHaveLength(2);
  });

  it('keyring refuses clearly when the keyring is not usable, and writes no file', () => {
    const home = mkdtempSync(join(tmpdir(), 'mcprt-store-'));
    const store = selectCredentialStore({
      mode: 'keyring',
      home,
      warn: () => undefined,
      probeKeyring: () => 'DBus error',
    });
    expect(() => store.set('a', record)).toThrow(
      'mcp_oauth_credentials_store = "keyring", but the keyring is not available: DBus error (use "auto" or "file")',
    );
    expect(() => store.get('a')).toThrow(/keyring is not available/);
  });

  it('file never touches the keyring', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mcprt-store-'));
    const store = selectCredentialStore({
      mode: 'file',
      home,
      warn: () => undefined,
      probeKeyring: () => {
        throw new Error('probed');
      },
    });
    await store.set('a', record);
    expect(store.get('a')?.access_token).toBe('token-aaaaaaaa');
  });

  it('the native keyring module loads on this Node (its probe answers null or a reason)', () => {
    const problem = KeyringCredentialStore.probe();
    expect(problem === null || typeof problem === 'string').toBe(true);
  });
});
