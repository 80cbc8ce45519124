/**
 * Reading the OAuth secrets a server's config names (client secrets, private keys, workload
 * JWTs, ID tokens): from an environment variable of the runtime's process, or from a file that
 * only its owner can read (mode 0600 or stricter — anything else is refused before the file is
 * read). Read when a token is requested, never cached in config or status; errors name the
 * server, the config key and the variable or file, never the value.
 */

import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { SecretSource } from '../config/types.js';
import { McprtError } from '../errors.js';

/** A secret the config names could not be read; nothing was sent anywhere. */
export class OAuthSecretError extends McprtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('oauth_secret_unavailable', message, options);
  }
}

/** `~/x` → the home directory's `x`; absolute paths as they are. */
export function expandHome(path: string): string {
  return path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

/**
 * The secret's text (a file's trailing newline removed). `server` labels the registration in
 * messages (`docs`, `docs@env`).
 */
export function readSecret(source: SecretSource, env: NodeJS.ProcessEnv, server: string): string {
  if (source.kind === 'env') {
    const value = env[source.name];
    if (value === undefined || value.trim() === '') {
      throw new OAuthSecretError(
        `MCP server \`${server}\`: environment variable \`${source.name}\` (${source.key}) is not set`,
      );
    }
    return value.trim();
  }
  const text = readOwnerOnlyFile(source.path, source.key, server).replace(/\r?\n$/, '');
  if (text.trim() === '')
    throw new OAuthSecretError(
      `MCP server \`${server}\`: \`${source.path}\` (${source.key}) is empty`,
    );
  return text;
}

/**
 * A file only its owner can read: opened once, checked with `fstat` on that descriptor (no
 * race with a swapped path), refused when group or others have any access.
 */
export function readOwnerOnlyFile(path: string, key: string, server: string): string {
  const file = expandHome(path);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'it does not exist' : `it cannot be opened (${code ?? 'error'})`;
    throw new OAuthSecretError(
      `MCP server \`${server}\`: cannot read \`${path}\` (${key}): ${why}`,
      {
        cause: error,
      },
    );
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new OAuthSecretError(
        `MCP server \`${server}\`: \`${path}\` (${key}) is not a regular file`,
      );
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new OAuthSecretError(
        `MCP server \`${server}\`: refusing to use \`${path}\` (${key}): its mode is ${mode.toString(8).padStart(4, '0')}, but a secret file must be readable by its owner only (chmod 600 ${path})`,
      );
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
