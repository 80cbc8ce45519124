/**
 * The certificate and private key of `mcprt serve --listen https://…` (`--tls-cert`,
 * `--tls-key`): PEM files read once at start. A file that cannot be read, or a pair Node's TLS
 * cannot use (not PEM, a key that does not match the certificate), is one line naming the
 * file(s); the key's contents never appear in it.
 */

import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

export interface GatewayTlsFiles {
  /** PEM certificate (chain) file. */
  readonly certFile: string;
  /** PEM private key file. */
  readonly keyFile: string;
}

export interface TlsCredentials {
  readonly cert: Buffer;
  readonly key: Buffer;
}

export function readTlsFiles(files: GatewayTlsFiles): TlsCredentials {
  const cert = readPem(files.certFile, 'TLS certificate');
  const key = readPem(files.keyFile, 'TLS private key');
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const reason = (error as Error).message.replace(/^error:[^:]*:[^:]*:[^:]*:/, '');
    throw new Error(
      `the TLS certificate ${files.certFile} and key ${files.keyFile} are not a usable pair: ${reason}`,
    );
  }
  return { cert, key };
}

function readPem(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read the ${what} ${file}${code !== undefined ? ` (${code})` : ''}`);
  }
}
