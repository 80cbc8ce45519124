/**
 * The rules every mcprt network listener follows (the app-server's WebSocket and `mcprt serve`'s
 * HTTP): bind to loopback unless the operator explicitly allows otherwise, require a bearer token
 * of at least 16 characters, compare the presented token in constant time, and report a listen
 * failure as one sentence naming the address. One module so the listeners cannot drift apart.
 */

import { timingSafeEqual } from 'node:crypto';

export const MIN_TOKEN_LENGTH = 16;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** `[::1]` (as URLs write IPv6 hosts) → `::1`. */
export const unbracket = (host: string): string => host.replace(/^\[(.*)\]$/, '$1');

/** A host as a URL shows it: IPv6 addresses in brackets. */
export const bracketed = (host: string): string => {
  const bare = unbracket(host);
  return bare.includes(':') ? `[${bare}]` : bare;
};

export function isLoopbackHost(host: string): boolean {
  const bare = unbracket(host);
  return LOOPBACK.has(bare) || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * Refuse a listener that is not loopback (unless allowed) or whose token is too short. `what`
 * names the listener in the message (`WebSocket`, `HTTP`).
 */
export function checkListenerOptions(
  options: { readonly host: string; readonly token: string; readonly allowNonLoopback?: boolean },
  what: string,
): void {
  const host = unbracket(options.host);
  if (!options.allowNonLoopback && !isLoopbackHost(host)) {
    throw new Error(
      `refusing to listen on non-loopback host ${host} (${what} listener is loopback-only)`,
    );
  }
  if (options.token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`the ${what} token must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
}

/** True when `authorization` is exactly `Bearer <token>` (constant-time comparison). */
export function bearerMatches(authorization: string | null | undefined, token: string): boolean {
  if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The listener could not be opened: `message` is one sentence naming the address. */
export class ListenError extends Error {
  readonly code: string;
  constructor(address: string, error: NodeJS.ErrnoException) {
    const code = error.code ?? 'ERROR';
    super(`cannot listen on ${address}: ${LISTEN_PROBLEMS[code] ?? error.message} (${code})`, {
      cause: error,
    });
    this.name = 'ListenError';
    this.code = code;
  }
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use',
  EADDRNOTAVAIL: 'this machine has no such address',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  EAFNOSUPPORT: 'this machine does not support that address family',
};
