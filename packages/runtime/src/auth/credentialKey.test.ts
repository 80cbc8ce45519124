import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { credentialName, credentialStoreKey } from './credentialKey.js';

describe('credential keys', () => {
  it('uses the plain name for thread-wide registrations', () => {
    expect(credentialName({ environmentId: null, name: 'docs' })).toBe('docs');
  });

  it('prefixes names that look like prefixed keys with local:', () => {
    expect(credentialName({ environmentId: null, name: 'executor:x' })).toBe('local:executor:x');
    expect(credentialName({ environmentId: null, name: 'local:y' })).toBe('local:local:y');
    expect(credentialName({ environmentId: null, name: 'ema-idp:z' })).toBe('local:ema-idp:z');
  });

  it('keys environment-contributed registrations by base64url environment and name', () => {
    expect(credentialName({ environmentId: 'box-1', name: 'docs' })).toBe(
      `executor:${Buffer.from('box-1').toString('base64url')}:${Buffer.from('docs').toString('base64url')}`,
    );
  });

  it('gives same-named servers in two environments different keys', () => {
    const url = 'http://127.0.0.1:9/mcp';
    const a = credentialStoreKey({ environmentId: 'a', name: 'shared' }, url);
    const b = credentialStoreKey({ environmentId: 'b', name: 'shared' }, url);
    const t = credentialStoreKey({ environmentId: null, name: 'shared' }, url);
    expect(new Set([a, b, t]).size).toBe(3);
  });

  it('appends 16 hex of the SHA-256 of the server identity (Codex field order)', () => {
    const url = 'https://example.com/mcp';
    const expected = createHash('sha256')
      .update('{"type":"http","url":"https://example.com/mcp","headers":{}}')
      .digest('hex')
      .slice(0, 16);
    expect(credentialStoreKey({ environmentId: null, name: 'docs' }, url)).toBe(`docs|${expected}`);
    expect(credentialStoreKey({ environmentId: null, name: 'docs' }, `${url}/v2`)).not.toBe(
      `docs|${expected}`,
    );
  });
});
