/**
 * Why a connection failed, briefly, for people: an error's cause chain (`error.cause`, nested,
 * and the `errors` of an AggregateError) rendered as one line — repeated messages dropped, depth
 * capped, a system or undici `code` added in parentheses when the message does not say it — and,
 * for a streamable-HTTP server, the request that failed (`POST http://host:port/mcp: connect
 * ECONNREFUSED 127.0.0.1:38111`, `… HTTP 500 Internal Server Error: <first line of the body>`).
 *
 * Never a secret: URLs (the configured one and any inside a message) keep only scheme, host, port
 * and path — no userinfo, query or fragment — and no request header is ever read.
 */

import { STATUS_CODES } from 'node:http';

import { SdkError, SdkHttpError } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';

/** How many links of a cause chain are read. */
const MAX_DEPTH = 6;
/** How many errors of an AggregateError are named. */
const MAX_AGGREGATED = 3;
/** How much of one message (and of a response body's first line) is kept. */
const MAX_TEXT = 200;

/** Certificate verification failures (node's `code`s): named as such, with the reason. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** `scheme://host:port/path` of a URL: no userinfo, query or fragment (they may hold secrets). */
export function redactUrl(url: string | URL): string {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    // Not a URL: drop whatever could be userinfo, a query or a fragment.
    return String(url)
      .replace(/\/\/[^/@\s]*@/, '//')
      .replace(/[?#].*$/, '');
  }
}

/** Every URL inside a text that has userinfo, a query or a fragment, redacted by {@link redactUrl}. */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi, (url) => {
    // A sentence's punctuation right after a URL is not part of it.
    const trail = /[.,;:)\]]+$/.exec(url)?.[0] ?? '';
    const bare = url.slice(0, url.length - trail.length);
    return /[@?#]/.test(bare) ? redactUrl(bare) + trail : url;
  });
}

/** The first non-empty line of a text, trimmed and capped. */
export function firstLine(text: string, max = MAX_TEXT): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/**
 * An error and its causes on one line: `fetch failed: connect ECONNREFUSED 127.0.0.1:9`,
 * `certificate verify failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`. A message
 * already said (contained in what came before) is not repeated; an AggregateError's errors are
 * joined with `; `. URLs in the text are redacted.
 */
export function describeCauseChain(error: unknown): string {
  const said: string[] = [];
  const seen = new Set<unknown>();
  const render = (e: unknown, depth: number): string => {
    if (depth >= MAX_DEPTH || e === null || e === undefined || seen.has(e)) return '';
    seen.add(e);
    const own = linkText(e);
    const fresh = own !== '' && !said.some((s) => s.includes(own)) ? own : '';
    if (fresh) said.push(fresh);
    const parts: string[] = [];
    const aggregated = (e as { errors?: unknown } | null)?.errors;
    if (e instanceof Error && Array.isArray(aggregated)) {
      const each = aggregated
        .slice(0, MAX_AGGREGATED)
        .map((x) => render(x, depth + 1))
        .filter((t) => t !== '');
      if (each.length > 0) parts.push(each.join('; '));
    }
    if (e instanceof Error) {
      const cause = render((e as { cause?: unknown }).cause, depth + 1);
      if (cause !== '') parts.push(cause);
    }
    return [fresh, ...parts].filter((t) => t !== '').join(': ');
  };
  const text = render(error, 0);
  return redactUrlsIn(text !== '' ? text : String(error));
}

/** One link of a chain: its message's first line, with its `code` when that is news. */
function linkText(e: unknown): string {
  if (typeof e === 'string') return firstLine(e);
  if (!(e instanceof Error)) return '';
  const message = firstLine(e.message);
  const raw = (e as { code?: unknown }).code;
  // The SDK's own codes (REQUEST_TIMEOUT, …) say nothing its message does not.
  const code = typeof raw === 'string' && !SdkError.isInstance(e) ? raw : undefined;
  if (message === '') return ''; // an AggregateError says it through its errors
  const withCode = code && !message.includes(code) ? `${message} (${code})` : message;
  return code && CERTIFICATE_CODES.has(code) && !/certificate verify failed/i.test(message)
    ? `certificate verify failed: ${withCode}`
    : withCode;
}

/**
 * An HTTP transport's failure, when `error` is one (else null): a request that got no response
 * (`fetch failed` and its cause) or an HTTP error status, possibly wrapped by the SDK (version
 * negotiation). Named by the request: `POST http://host:port/mcp: connect ECONNREFUSED …`,
 * `POST …: HTTP 500 Internal Server Error: database is down`. The SDK does not say which request
 * failed: the configured URL is used, and POST (initialize, server/discover and every request go
 * by POST; the SSE stream by GET).
 */
export function describeHttpFailure(config: ServerConfig, error: unknown): string | null {
  if (config.transport.type !== 'streamable_http') return null;
  const url = redactUrl(config.transport.url);
  // Through the SDK's wrappers only: an error of ours (OAuth, …) keeps its own words.
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < MAX_DEPTH; depth++) {
    if (SdkHttpError.isInstance(e) && typeof e.status === 'number') {
      const method = /SSE stream/i.test(e.message) ? 'GET' : 'POST';
      return `${method} ${url}: ${httpStatusText(e)}`;
    }
    if (!SdkError.isInstance(e)) {
      // fetch rejects with a TypeError; one the SDK wrapped came from its fetch.
      if (!isFetchFailure(e) && !(depth > 0 && e.name === 'TypeError')) return null;
      // `fetch failed` says nothing its cause does not.
      const cause = (e as { cause?: unknown }).cause;
      const detail = isFetchFailure(e) && cause !== undefined ? cause : e;
      return `POST ${url}: ${describeCauseChain(detail)}`;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** `HTTP 500 Internal Server Error: <first line of the body>`. */
function httpStatusText(error: SdkHttpError): string {
  const data = (error.data ?? {}) as { statusText?: unknown; text?: unknown };
  const statusText =
    typeof data.statusText === 'string' && data.statusText !== ''
      ? data.statusText
      : (STATUS_CODES[error.status] ?? '');
  const body = typeof data.text === 'string' ? firstLine(data.text) : '';
  const head = `HTTP ${error.status}${statusText ? ` ${statusText}` : ''}`;
  return redactUrlsIn(body ? `${head}: ${body}` : head);
}

/** What `fetch` rejects with when no response came (undici: `TypeError('fetch failed')`). */
function isFetchFailure(error: Error): boolean {
  return error.name === 'TypeError' && /^fetch failed$/i.test(error.message.trim());
}
