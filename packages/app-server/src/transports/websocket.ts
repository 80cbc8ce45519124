/**
 * The app-server over WebSocket. Binds to loopback unless told otherwise; every upgrade must
 * carry `Authorization: Bearer <token>` (compared in constant time), else HTTP 401 before any
 * frame is exchanged. Frames larger than the message limit close that connection (1009); others
 * are unaffected.
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebSocketServer } from 'ws';

import type { AppServer } from '../appServer.js';

export interface WebSocketListenOptions {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  /** Permit a non-loopback host (off by default). */
  readonly allowNonLoopback?: boolean;
}

export interface WebSocketListener {
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function bearerMatches(req: IncomingMessage, token: string): boolean {
  const header = req.headers['authorization'];
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function listenWebSocket(
  server: AppServer,
  options: WebSocketListenOptions,
): Promise<WebSocketListener> {
  if (!options.allowNonLoopback && !isLoopbackHost(options.host)) {
    throw new Error(
      `refusing to listen on non-loopback host ${options.host} (WebSocket listener is loopback-only)`,
    );
  }
  if (options.token.length < 16)
    throw new Error('the WebSocket token must be at least 16 characters');
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket upgrade required\n');
  });
  const wss = new WebSocketServer({
    server: http,
    maxPayload: server.maxMessageBytes,
    verifyClient: (info, done) =>
      bearerMatches(info.req, options.token) ? done(true) : done(false, 401, 'Unauthorized'),
  });
  wss.on('connection', (socket) => {
    const peer = server.attach({
      send: (text) => socket.send(text),
      close: () => socket.close(),
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return peer.receive('<binary frame>');
      peer.receive(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString());
    });
    socket.on('close', () => peer.close());
    socket.on('error', () => peer.close());
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host =
    options.host.includes(':') && !options.host.startsWith('[')
      ? `[${options.host}]`
      : options.host;
  return {
    url: `ws://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => http.close(() => resolve()));
      }),
  };
}
