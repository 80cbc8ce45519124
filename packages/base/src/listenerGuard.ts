/**
 * The rules every mcprt network listener follows (the app-server's WebSocket and `mcprt serve`'s
 * HTTP/HTTPS): bind to loopback unless the operator explicitly allows otherwise or the listener
 * serves TLS with OAuth callers, require a static bearer token of at least 16 characters,
 * compare the presented token in constant time, and report a listen failure as one sentence
 * naming the address. One module so the listeners cannot drift apart.
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

/** What decides where a listener may bind (`mcprt serve --listen` and the app-server's `--listen`). */
export interface ListenerOptions {
  readonly host: string;
  /** The static bearer token, when the listener has one (at least 16 characters). */
  readonly token?: string;
  /** The app-server's `--allow-non-loopback`: the operator takes the risk. */
  readonly allowNonLoopback?: boolean;
  /** Whether it serves TLS; undefined: a listener without TLS support (old message). */
  readonly tls?: boolean;
  /** How callers are identified: one static token, or OAuth access tokens (`[serve.auth] mode`). */
  readonly authMode?: 'token' | 'oauth';
}

/**
 * Refuse a listener that may not bind where it is asked to, or whose token is too short. `what`
 * names the listener in the message (`WebSocket`, `HTTP`). Beyond loopback (unless allowed) a
 * listener needs TLS and OAuth: plain traffic and the static token stay on this machine.
 */
export function checkListenerOptions(options: ListenerOptions, what: string): void {
  const host = unbracket(options.host);
  if (!options.allowNonLoopback && !isLoopbackHost(host)) {
    const refusing = `refusing to listen on non-loopback host ${host}`;
    if (options.tls === undefined) {
      throw new Error(`${refusing} (${what} listener is loopback-only)`);
    }
    if (!options.tls) {
      throw new Error(
        `${refusing}: plain ${what} is loopback-only; use https:// with --tls-cert and --tls-key and [serve.auth] mode = "oauth"`,
      );
    }
    if (options.authMode !== 'oauth') {
      throw new Error(
        `${refusing}: the static token is loopback-only; beyond loopback set [serve.auth] mode = "oauth"`,
      );
    }
  }
  if (options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) {
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
