/**
 * The app-server over WebSocket. Binds to loopback unless told otherwise; every upgrade must
 * carry `Authorization: Bearer <token>` (compared in constant time), else HTTP 401 before any
 * frame is exchanged. A listen failure (port in use, unknown address) is a `ListenError` with one
 * clear sentence, never an unhandled `error` event. Frames larger than the message limit close
 * that connection (1009); others are unaffected.
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

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** `[::1]` (as URLs write IPv6 hosts) → `::1`. */
const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

export function isLoopbackHost(host: string): boolean {
  const bare = unbracket(host);
  return LOOPBACK.has(bare) || /^127\.\d+\.\d+\.\d+$/.test(bare);
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
  const host = unbracket(options.host);
  if (!options.allowNonLoopback && !isLoopbackHost(host)) {
    throw new Error(
      `refusing to listen on non-loopback host ${host} (WebSocket listener is loopback-only)`,
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
  const shown = host.includes(':') ? `[${host}]` : host;
  // `ws` re-emits the HTTP server's errors on the WebSocketServer: without a listener there, a
  // listen failure would crash the process instead of rejecting here.
  wss.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ListenError(`ws://${shown}:${options.port}`, error)),
    );
    http.listen(options.port, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => http.close(() => resolve()));
      }),
  };
}
