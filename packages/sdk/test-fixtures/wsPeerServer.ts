// A real `ws` WebSocketServer on 127.0.0.1 (port 0) for the SDK's tests: it checks
// `Authorization: Bearer <token>` on the upgrade (401 with a short body otherwise) and runs the
// scripted peer (peer.mjs) on each accepted connection.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { WebSocketServer } from 'ws';

import { createPeer } from './peer.mjs';

export interface WsPeerServer {
  readonly url: string;
  /** Authorization headers of every upgrade attempt, accepted or not. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startWsPeerServer(token: string): Promise<WsPeerServer> {
  const authorizations: (string | undefined)[] = [];
  const wss = new WebSocketServer({ noServer: true });
  const http: Server = createServer((_req, res) => {
    res.writeHead(426).end('upgrade required');
  });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${token}`) {
      const body = 'missing or invalid bearer token';
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const peer = createPeer({
        send: (message) => ws.send(JSON.stringify(message)),
        sendRaw: (text) => ws.send(text),
        stderr: () => {},
        exit: (code) => ws.close(4000 + code, 'peer exiting'),
      });
      ws.on('message', (data) => {
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
        peer.receive(JSON.parse(text) as Record<string, unknown>);
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    authorizations,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
