/** Tests for reading the secrets an `[oauth]` table names: variables and owner-only files. */

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { OAuthSecretError, readSecret } from './secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'mcprt-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'super-secret-value-0123456789';

function secretFile(name: string, mode: number, text = `${SECRET}\n`): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

const read = (source: Parameters<typeof readSecret>[0], env: NodeJS.ProcessEnv = {}) =>
  readSecret(source, env, 'billing@devbox');

function failure(fn: () => unknown): OAuthSecretError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthSecretError);
    expect((error as OAuthSecretError).code).toBe('oauth_secret_unavailable');
    expect((error as Error).message).not.toContain(SECRET);
    return error as OAuthSecretError;
  }
  throw new Error('expected a failure');
}

describe('readSecret', () => {
  it('reads an owner-only file (0600 or 0400) without its trailing newline', () => {
    const key = 'oauth.client_secret_file';
    expect(read({ kind: 'file', path: secretFile('a', 0o600), key })).toBe(SECRET);
    expect(read({ kind: 'file', path: secretFile('b', 0o400), key })).toBe(SECRET);
  });

  it('refuses a file group or others can access, before reading it, naming file, key and fix', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const path = secretFile(`open-${mode.toString(8)}`, mode);
      const error = failure(() => read({ kind: 'file', path, key: 'oauth.private_key_file' }));
      expect(error.message).toBe(
        `MCP server \`billing@devbox\`: refusing to use \`${path}\` (oauth.private_key_file): its mode is ${mode.toString(8).padStart(4, '0')}, but a secret file must be readable by its owner only (chmod 600 ${path})`,
      );
    }
  });

  it('names a missing file, a directory and an empty file', () => {
    const key = 'oauth.assertion_file';
    const missing = join(dir, 'nope');
    expect(failure(() => read({ kind: 'file', path: missing, key })).message).toBe(
      `MCP server \`billing@devbox\`: cannot read \`${missing}\` (oauth.assertion_file): it does not exist`,
    );
    const folder = join(dir, 'folder');
    mkdirSync(folder, { mode: 0o700 });
    expect(failure(() => read({ kind: 'file', path: folder, key })).message).toBe(
      `MCP server \`billing@devbox\`: \`${folder}\` (oauth.assertion_file) is not a regular file`,
    );
    const empty = secretFile('empty', 0o600, '\n');
    expect(failure(() => read({ kind: 'file', path: empty, key })).message).toBe(
      `MCP server \`billing@devbox\`: \`${empty}\` (oauth.assertion_file) is empty`,
    );
  });

  it('reads a variable of the given environment; unset or blank is an error naming it', () => {
    const key = 'oauth.client_secret_env_var';
    expect(read({ kind: 'env', name: 'S', key }, { S: `${SECRET}\n` })).toBe(SECRET);
    for (const env of [{}, { S: '  ' }]) {
      expect(failure(() => read({ kind: 'env', name: 'S', key }, env)).message).toBe(
        'MCP server `billing@devbox`: environment variable `S` (oauth.client_secret_env_var) is not set',
      );
    }
  });
});
