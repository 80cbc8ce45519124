import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { FileCredentialStore } from './fileStore.js';
import type { StoredCredential } from './types.js';

const record = (token: string): StoredCredential => ({
  server_name: 'docs',
  environment_id: null,
  server_url: 'http://127.0.0.1:1/mcp',
  client_id: 'client',
  client: { client_id: 'client' },
  access_token: token,
  scopes: [],
});

const fresh = () => join(mkdtempSync(join(tmpdir(), 'mcprt-store-')), 'home', '.credentials.json');

describe('FileCredentialStore', () => {
  it('creates the file with mode 0600 and keeps it 0600 on every write', async () => {
    const file = fresh();
    const store = new FileCredentialStore(file);
    await store.set('a', record('token-aaaaaaaa'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await store.set('b', record('token-bbbbbbbb'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(store.get('a')?.access_token).toBe('token-aaaaaaaa');
    expect(store.get('b')?.access_token).toBe('token-bbbbbbbb');
    // Nothing but the store itself is left behind (no temporary or lock files).
    expect(readdirSync(join(file, '..'))).toEqual(['.credentials.json']);
  });

  it('removes the file when the last entry is deleted', async () => {
    const file = fresh();
    const store = new FileCredentialStore(file);
    await store.set('a', record('token-aaaaaaaa'));
    expect(await store.delete('missing')).toBe(false);
    expect(await store.delete('a')).toBe(true);
    expect(readdirSync(join(file, '..'))).toEqual([]);
    expect(store.get('a')).toBeNull();
  });

  it('refuses a file that is not JSON, without quoting it, and leaves it unchanged', async () => {
    const file = fresh();
    await new FileCredentialStore(file).set('a', record('token-aaaaaaaa'));
    writeFileSync(file, '{"a": {"access_token": "secret-token-value"');
    const store = new FileCredentialStore(file);
    expect(() => store.get('a')).toThrow(
      `OAuth credentials file ${file} is not valid JSON; fix or remove it (it was left unchanged)`,
    );
    await expect(store.set('b', record('token-bbbbbbbb'))).rejects.toThrow(/is not valid JSON/);
    try {
      store.get('a');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-token-value');
    }
    expect(readFileSync(file, 'utf8')).toBe('{"a": {"access_token": "secret-token-value"');
  });

  it('keeps both writers’ entries when two stores share the file', async () => {
    const file = fresh();
    const one = new FileCredentialStore(file);
    const two = new FileCredentialStore(file);
    await one.set('a', record('token-aaaaaaaa'));
    await two.set('b', record('token-bbbbbbbb'));
    await one.set('a', record('token-cccccccc'));
    expect(two.get('a')?.access_token).toBe('token-cccccccc');
    expect(one.get('b')?.access_token).toBe('token-bbbbbbbb');
  });

  it('keeps every entry of concurrent writers, waiting for the lock without blocking', async () => {
    const file = fresh();
    const stores = [0, 1, 2, 3].map(() => new FileCredentialStore(file));
    await Promise.all(stores.map((s, i) => s.set(`k${i}`, record(`token-${i}-aaaaaaa`))));
    expect(stores.map((_, i) => stores[0]!.get(`k${i}`)?.access_token)).toEqual([
      'token-0-aaaaaaa',
      'token-1-aaaaaaa',
      'token-2-aaaaaaa',
      'token-3-aaaaaaa',
    ]);
    expect(readdirSync(join(file, '..'))).toEqual(['.credentials.json']);
  });

  it('reports a lock held too long by another process, and leaves the file unchanged', async () => {
    const file = fresh();
    const store = new FileCredentialStore(file);
    await store.set('a', record('token-aaaaaaaa'));
    writeFileSync(`${file}.lock`, '');
    const started = Date.now();
    await expect(store.set('b', record('token-bbbbbbbb'))).rejects.toThrow(
      `OAuth credentials file ${file} is locked by another process (${file}.lock)`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(store.get('b')).toBeNull();
    expect(store.get('a')?.access_token).toBe('token-aaaaaaaa');
  });
});
