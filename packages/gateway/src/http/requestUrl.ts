/**
 * The URL of a request to the gateway's HTTP listener, built only from what may be in it: a
 * `Host` of host[:port] (a name or IPv4 address, or an IPv6 address in brackets — no userinfo,
 * no path, no spaces) and an origin-form target (`/…` — no absolute-form `http://…`, no `*`).
 * Anything else is null, which the listener answers 400 with a fixed text: never parsed
 * further, never a 500, never logged.
 */

import type { IncomingMessage } from 'node:http';

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::(\d{1,5}))?$/;

export const BAD_REQUEST_TEXT = 'bad request: malformed Host header or request target\n';

/**
 * `scheme://host/target` of `req`, or null when its Host or target is malformed. `ownHost`
 * (host:port of the listener) stands in for a missing Host (HTTP/1.0).
 */
export function requestUrl(
  req: IncomingMessage,
  scheme: 'http' | 'https',
  ownHost: string,
): URL | null {
  const host = req.headers.host ?? ownHost;
  const target = req.url ?? '';
  const match = HOST.exec(host);
  if (match === null || (match[1] !== undefined && Number(match[1]) > 65535)) return null;
  if (!target.startsWith('/')) return null;
  try {
    const url = new URL(`${scheme}://${host}${target}`);
    // The target must not have moved the authority (`//host/…` stays a path here).
    return url.host === new URL(`${scheme}://${host}`).host ? url : null;
  } catch {
    return null;
  }
}
