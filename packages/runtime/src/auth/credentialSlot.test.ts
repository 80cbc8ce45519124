import { describe, expect, it } from 'vitest';

import { CredentialSlot, REFRESH_MARGIN_MS } from './credentialSlot.js';
import type { CredentialStore, StoredCredential } from './store/types.js';

/** The store seam, in memory (the real stores have their own tests). */
class MemoryStore implements CredentialStore {
  readonly description = 'memory';
  readonly entries = new Map<string, StoredCredential>();
  get(key: string) {
    return this.entries.get(key) ?? null;
  }
  set(key: string, record: StoredCredential) {
    this.entries.set(key, record);
  }
  delete(key: string) {
    return this.entries.delete(key);
  }
}

const record = (expiresAt: number | undefined, refresh?: string): StoredCredential => ({
  server_name: 'docs',
  environment_id: null,
  server_url: 'http://127.0.0.1:1/mcp',
  client_id: 'c',
  client: { client_id: 'c' },
  access_token: 'access-token-1',
  ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
  ...(refresh !== undefined ? { refresh_token: refresh } : {}),
  scopes: [],
  // Nothing listens here: a refresh attempt fails at once.
  authorization_server_url: 'http://127.0.0.1:1',
});

const noFetch = () => Promise.reject(new Error('no network in this test'));

describe('CredentialSlot', () => {
  const now = 1_000_000;
  const slotWith = (r: StoredCredential | null) => {
    const store = new MemoryStore();
    if (r) store.set('k', r);
    return {
      store,
      slot: new CredentialSlot(
        'k',
        { environmentId: null, name: 'docs' },
        r?.server_url ?? '',
        store,
        () => now,
      ),
    };
  };

  it('treats a token expiring within 30 s as expired', () => {
    const { slot } = slotWith(null);
    expect(REFRESH_MARGIN_MS).toBe(30_000);
    expect(slot.expiring(record(now + 29_000))).toBe(true);
    expect(slot.expiring(record(now + 31_000))).toBe(false);
    expect(slot.expiring(record(undefined))).toBe(false);
  });

  it('sends a fresh token as is, and nothing when none is stored', async () => {
    expect(await slotWith(record(now + 60_000, 'r')).slot.accessToken(noFetch)).toBe(
      'access-token-1',
    );
    expect(await slotWith(null).slot.accessToken(noFetch)).toBeUndefined();
  });

  it('keeps the record when a refresh fails for a transient reason', async () => {
    const { slot, store } = slotWith(record(now + 1_000, 'refresh-token-1'));
    const before = JSON.stringify(store.get('k'));
    await expect(slot.accessToken(noFetch)).rejects.toMatchObject({
      code: 'oauth_refresh_failed',
      message:
        'failed to refresh OAuth tokens for server docs: no network in this test (the stored credentials were kept)',
    });
    expect(JSON.stringify(store.get('k'))).toBe(before);
  });

  it('says "not logged in" with the login command when the server refuses and nothing is stored', async () => {
    await expect(slotWith(null).slot.refreshAfterRejection(undefined, noFetch)).rejects.toThrow(
      'The docs MCP server is not logged in. Run `mcprt mcp login docs`.',
    );
  });
});
