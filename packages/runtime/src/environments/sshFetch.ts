/**
 * A WHATWG `fetch` that sends each request over a local unix socket which the ssh control master
 * forwards to the URL's `host:port` from the remote side. URLs, `Host` headers and TLS names stay
 * exactly as configured (`http://127.0.0.1:PORT` means the remote host's loopback); only the
 * socket underneath changes. The MCP SDK's HTTP transport takes it as its `fetch` option.
 */

import { request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose responses carry no body (the Response constructor rejects one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

export function socketFetch(
  /** The forwarded socket for a URL (created on first use). */
  socketFor: (url: URL) => Promise<string>,
  /** Turns a transport failure into an error that names the environment. */
  describe: (url: URL, error: unknown) => Error,
): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw describe(url, new Error(`unsupported protocol ${url.protocol}`));
    }
    let socketPath: string;
    try {
      socketPath = await socketFor(url);
    } catch (error) {
      throw describe(url, error);
    }
    const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
    const named = new Map<string, string>();
    request.headers.forEach((value, key) => named.set(key, value));
    const headers: OutgoingHttpHeaders = Object.fromEntries(named);
    headers['host'] = url.host;
    if (body !== null) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;

    return new Promise<Response>((resolve, reject) => {
      const req = send(
        {
          socketPath,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers,
          signal: request.signal,
          ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
        },
        (res) => resolve(toResponse(request.method, res)),
      );
      req.on('error', (error) =>
        reject(error.name === 'AbortError' ? error : describe(url, error)),
      );
      req.end(body ?? undefined);
    });
  };
}

function toResponse(method: string, res: IncomingMessage): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 502;
  const noBody = method === 'HEAD' || NULL_BODY_STATUSES.has(status);
  if (noBody) res.resume();
  const body = noBody ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}
