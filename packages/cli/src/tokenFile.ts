/**
 * The bearer token of a network listener (`app-server --listen ws://…`, `serve --listen
 * http://…`): read from the file the operator names (which must be this user's and private:
 * whoever reads or replaces it controls the listener), or generated (32 random bytes, base64url)
 * into a new 0600 file in the mcprt home, renamed into place so a planted symlink or hard link is
 * replaced. Either way the file is hidden from sandboxed commands. The token itself is never
 * printed; callers say which file holds it.
 */

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MIN_TOKEN_LENGTH } from '@mcprt/base';
import { assertPrivatePath, protectFromSandbox, writePrivateFileAtomic } from '@mcprt/runtime';

import { UsageError } from './args.js';

export interface TokenSource {
  /** The operator's token file (`--ws-token-file`, `--http-token-file`), if given. */
  readonly file: string | undefined;
  /** The option that names it, for messages. */
  readonly flag: string;
  /** The command, for messages (`app-server`, `serve`). */
  readonly command: string;
  /** mcprt home, where a generated token is written. */
  readonly home: string;
  /** File name of a generated token inside the home (`app-server.token`, `serve.token`). */
  readonly generatedName: string;
}

export function readOrCreateToken(source: TokenSource): { value: string; file: string } {
  const token = readOrGenerate(source);
  // Whoever reads the token controls the listener: no sandboxed command may see it.
  protectFromSandbox(token.file);
  return token;
}

function readOrGenerate(source: TokenSource): { value: string; file: string } {
  const { file, flag, command, home } = source;
  if (file !== undefined) {
    assertPrivatePath(file, { what: `the --${flag}`, secret: true });
    let value: string;
    try {
      value = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new UsageError(
        `${command}: cannot read --${flag} ${file}: ${(error as Error).message}`,
      );
    }
    if (value.length < MIN_TOKEN_LENGTH) {
      throw new UsageError(
        `${command}: the token in ${file} must be at least ${MIN_TOKEN_LENGTH} characters`,
      );
    }
    return { value, file };
  }
  const generated = join(home, source.generatedName);
  const value = randomBytes(32).toString('base64url');
  writePrivateFileAtomic(generated, `${value}\n`);
  return { value, file: generated };
}
