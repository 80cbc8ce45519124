/**
 * What a web page open in the user's browser can do to a local app-server (docs/security.md):
 * a browser cannot put an `Authorization` header on a WebSocket upgrade, so every way a page can
 * shape an upgrade — its `Origin`, a token in the query string, a token as a subprotocol, a cookie
 * — is refused with HTTP 401 before any frame, and plain HTTP requests (what a page can send
 * with `fetch(…, {mode: 'no-cors'})` or a form) get 426 and reach nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { makeHome } from '../helpers/fixtures.js';
import type { WsAppServer } from './helpers.js';
import { startWsAppServer } from './helpers.js';

describe('a web page cannot drive the app-server', () => {
  let server: WsAppServer;

  beforeAll(async () => {
    server = await startWsAppServer(makeHome(''));
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The HTTP status of an upgrade attempt (101 when it was accepted). */
  const upgrade = (url: string, options: WebSocket.ClientOptions, protocols?: string[]) =>
    new Promise<number>((resolve) => {
      const socket = new WebSocket(url, protocols, options);
      socket.once('open', () => {
        socket.close();
        resolve(101);
      });
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.once('error', () => resolve(0));
    });

  it('every upgrade a browser can make is refused with 401', async () => {
    const origin = 'https://evil.example';
    expect(await upgrade(server.url, { origin })).toBe(401);
    expect(await upgrade(`${server.url}/?token=${server.token}`, { origin })).toBe(401);
    expect(await upgrade(server.url, { origin }, ['bearer', server.token])).toBe(401);
    expect(
      await upgrade(server.url, { origin, headers: { cookie: `token=${server.token}` } }),
    ).toBe(401);
    // The control: the same upgrade with the header a browser cannot send is accepted.
    expect(
      await upgrade(server.url, { headers: { authorization: `Bearer ${server.token}` } }),
    ).toBe(101);
  });

  it('plain HTTP requests get 426 and nothing else', async () => {
    const http = server.url.replace(/^ws:/, 'http:');
    for (const init of [
      { method: 'GET' },
      { method: 'POST', body: JSON.stringify({ id: 1, method: 'thread/start', params: {} }) },
    ]) {
      const res = await fetch(http, { ...init, headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(426);
      expect(await res.text()).toBe('WebSocket upgrade required\n');
    }
  });
});
