/**
 * `WebSocketTransport`: one JSON message per text frame to an app-server listening on
 * `ws://host:port`, authenticated with `Authorization: Bearer <token>`. Owns the handshake (a
 * refused upgrade becomes an error naming the HTTP status) and the socket's lifetime.
 */

import type { ClientRequest, IncomingMessage } from 'node:http';

import { DEFAULT_MAX_LINE_BYTES } from '@mcprt/base';
import type WebSocket from 'ws';

import { TransportBase } from './transportBase.js';

export interface WebSocketTransportOptions {
  /** Bearer token sent as `Authorization: Bearer <token>`; omitted when undefined. */
  readonly token?: string;
  /** How long the opening handshake may take, in ms (default 10000). */
  readonly handshakeTimeoutMs?: number;
  /** Largest incoming frame, in bytes (default 64 MiB). */
  readonly maxPayloadBytes?: number;
  /** Wait for the closing handshake this long before dropping the socket, in ms (default 2000). */
  readonly closeTimeoutMs?: number;
}

const BODY_PREVIEW_BYTES = 512;
const BODY_WAIT_MS = 500;

/** The URL without user info, so an error message never carries credentials. */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Read at most a short prefix of a refused upgrade's body, never waiting long for it. */
function readBodyPreview(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      res.removeAllListeners('data');
      resolve(Buffer.concat(chunks).toString('utf8').slice(0, BODY_PREVIEW_BYTES).trim());
    };
    const timer = setTimeout(done, BODY_WAIT_MS);
    res.on('data', (chunk: Buffer) => {
      if (size < BODY_PREVIEW_BYTES) chunks.push(chunk);
      size += chunk.length;
      if (size >= BODY_PREVIEW_BYTES) done();
    });
    res.once('end', done);
    res.once('error', done);
  });
}

/** JSON-RPC over a WebSocket. Call `connect()` before sending. */
export class WebSocketTransport extends TransportBase {
  readonly #url: string;
  readonly #options: WebSocketTransportOptions;
  #socket: WebSocket | undefined;
  #lastError: Error | undefined;
  /** Set when the server answered the upgrade with a plain HTTP response. */
  #refusal: Error | undefined;
  /** Settles `connect()`; cleared once the socket is open or gone. */
  #connecting: { resolve: () => void; reject: (error: Error) => void } | undefined;

  constructor(url: string, options: WebSocketTransportOptions = {}) {
    super();
    this.#url = url;
    this.#options = options;
  }

  /**
   * Open the socket. Rejects with an error naming the HTTP status when the server refuses the
   * upgrade (e.g. `HTTP 401` for a missing or wrong token), or the network error otherwise.
   */
  async connect(): Promise<void> {
    if (this.state !== 'new') {
      throw new Error('WebSocketTransport.connect() may only be called once');
    }
    this.state = 'connecting';
    const { token } = this.#options;
    // `ws` is loaded on the first WebSocket connection, not with the SDK (the CLI uses the SDK's
    // text helpers in every command).
    const { default: WebSocketClass } = await import('ws');
    if ((this.state as string) !== 'connecting') throw new Error('WebSocket transport closed');
    const socket = new WebSocketClass(this.#url, {
      handshakeTimeout: this.#options.handshakeTimeoutMs ?? 10_000,
      maxPayload: this.#options.maxPayloadBytes ?? DEFAULT_MAX_LINE_BYTES,
      perMessageDeflate: false,
      ...(token !== undefined ? { headers: { Authorization: `Bearer ${token}` } } : {}),
    });
    this.#socket = socket;
    await new Promise<void>((resolve, reject) => {
      this.#connecting = { resolve, reject };
      this.#wire(socket);
    });
  }

  send(message: object): void {
    this.assertOpen();
    this.#socket?.send(JSON.stringify(message));
  }

  /** Send a normal close frame; drop the socket if the peer does not answer in time. */
  async close(): Promise<void> {
    const socket = this.#socket;
    if (socket === undefined) {
      this.finish(undefined);
      return this.ended;
    }
    if (this.state === 'open' || this.state === 'connecting') {
      this.state = 'closing';
      if (socket.readyState === socket.OPEN) socket.close(1000, 'client closed');
      else socket.terminate();
      const timer = setTimeout(() => socket.terminate(), this.#options.closeTimeoutMs ?? 2000);
      timer.unref();
      void this.ended.then(() => clearTimeout(timer));
    }
    return this.ended;
  }

  #wire(socket: WebSocket): void {
    const where = displayUrl(this.#url);
    socket.on('error', (error) => {
      this.#lastError = error;
    });
    socket.once('open', () => {
      this.state = 'open';
      this.#connecting?.resolve();
      this.#connecting = undefined;
    });
    socket.on('unexpected-response', (req: ClientRequest, res: IncomingMessage) => {
      const status = `HTTP ${String(res.statusCode)}${res.statusMessage ? ` ${res.statusMessage}` : ''}`;
      void readBodyPreview(res).then((body) => {
        this.#refusal = new Error(
          `WebSocket handshake with ${where} failed: ${status}${body ? `: ${body}` : ''}`,
        );
        req.destroy();
        socket.terminate();
      });
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        this.errors.emit(new Error('app-server sent a binary WebSocket frame; ignored it'));
        return;
      }
      this.receive(
        (Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.isBuffer(data)
            ? data
            : Buffer.from(data)
        ).toString('utf8'),
      );
    });
    socket.on('close', (code, reason) => {
      const connecting = this.#connecting;
      if (connecting !== undefined) {
        this.#connecting = undefined;
        const error =
          this.#refusal ??
          new Error(
            `WebSocket connection to ${where} failed: ${this.#lastError?.message ?? 'closed during the handshake'}`,
            { cause: this.#lastError },
          );
        connecting.reject(error);
        return this.finish(error);
      }
      if (this.state === 'closing') return this.finish(undefined);
      const text = reason.toString('utf8');
      this.finish(
        new Error(
          `WebSocket connection closed by the app-server (code ${code}${text ? `: ${text}` : ''})`,
          { cause: this.#lastError },
        ),
      );
    });
  }
}
