/**
 * The app-server over WebSocket. Binds to loopback unless told otherwise; every upgrade must
 * carry `Authorization: Bearer <token>` (compared in constant time), else HTTP 401 before any
 * frame is exchanged. A listen failure (port in use, unknown address) is a `ListenError` with one
 * clear sentence, never an unhandled `error` event. Frames larger than the message limit close
 * that connection (1009); others are unaffected.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { AppServer } from '../appServer.js';
import {
  bearerMatches,
  bracketed,
  checkListenerOptions,
  ListenError,
  unbracket,
} from '@mcprt/base';

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

export async function listenWebSocket(
  server: AppServer,
  options: WebSocketListenOptions,
): Promise<WebSocketListener> {
  checkListenerOptions(options, 'WebSocket');
  const host = unbracket(options.host);
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket upgrade required\n');
  });
  // `ws` is loaded when a WebSocket listener starts, not with the app-server (stdio needs none).
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({
    server: http,
    maxPayload: server.maxMessageBytes,
    verifyClient: (info, done) =>
      bearerMatches(info.req.headers['authorization'], options.token)
        ? done(true)
        : done(false, 401, 'Unauthorized'),
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
  const shown = bracketed(host);
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
