/**
 * Node `http` ↔ web `Request`/`Response` for the gateway's HTTP listener (the SDK's handlers
 * speak the fetch API). The URL comes checked (requestUrl.ts), so building the `Request` cannot
 * throw on a malformed Host or target. The request body is read in full up to a bound; the
 * request's signal is aborted when the client goes away, which cancels the MCP request being
 * served; a streamed (SSE) response is written chunk by chunk and its reader cancelled if the
 * client disconnects.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {}

/** `url`: the request's URL as requestUrl.ts built it from a checked Host and target. */
export async function toWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  maxBodyBytes: number,
): Promise<Request> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new BodyTooLargeError(`request body over ${maxBodyBytes} bytes`);
    chunks.push(chunk);
  }
  const controller = new AbortController();
  // The response closing before it finished means the client is gone.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the HTTP client disconnected'));
  });
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [existing, value].flat();
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } catch {
    // the client went away mid-stream: nothing left to write to
  } finally {
    res.off('close', stop);
    res.end();
  }
}
