/**
 * `WebSocketTransport`: one JSON message per text frame to an app-server listening on
 * `ws://host:port`, authenticated with `Authorization: Bearer <token>`. Owns the handshake (a
 * refused upgrade becomes an error naming the HTTP status) and the socket's lifetime.
 */

import type { ClientRequest, IncomingMessage } from 'node:http';

import { DEFAULT_MAX_LINE_BYTES, Listeners } from '@mcprt/base';
import WebSocket from 'ws';

import { parseJsonLine } from './jsonLine.js';
import type { ClientTransport, Unsubscribe } from './transport.js';

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
export class WebSocketTransport implements ClientTransport {
  readonly #url: string;
  readonly #options: WebSocketTransportOptions;
  readonly #messages = new Listeners<[unknown]>();
  readonly #closeListeners = new Listeners<[Error | undefined]>();
  readonly #errors = new Listeners<[Error]>();
  #socket: WebSocket | undefined;
  #state: 'new' | 'connecting' | 'open' | 'closing' | 'closed' = 'new';
  #lastError: Error | undefined;
  /** Set when the server answered the upgrade with a plain HTTP response. */
  #refusal: Error | undefined;
  /** Settles `connect()`; cleared once the socket is open or gone. */
  #connecting: { resolve: () => void; reject: (error: Error) => void } | undefined;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;

  constructor(url: string, options: WebSocketTransportOptions = {}) {
    this.#url = url;
    this.#options = options;
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve;
    });
  }

  /**
   * Open the socket. Rejects with an error naming the HTTP status when the server refuses the
   * upgrade (e.g. `HTTP 401` for a missing or wrong token), or the network error otherwise.
   */
  async connect(): Promise<void> {
    if (this.#state !== 'new') {
      throw new Error('WebSocketTransport.connect() may only be called once');
    }
    this.#state = 'connecting';
    const { token } = this.#options;
    const socket = new WebSocket(this.#url, {
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
    const socket = this.#socket;
    if (this.#state !== 'open' || socket === undefined) {
      throw new Error(`cannot send: the app-server transport is ${this.#state}`);
    }
    socket.send(JSON.stringify(message));
  }

  onMessage(handler: (message: unknown) => void): Unsubscribe {
    return this.#messages.add(handler);
  }

  onClose(handler: (error?: Error) => void): Unsubscribe {
    return this.#closeListeners.add(handler);
  }

  onError(handler: (error: Error) => void): Unsubscribe {
    return this.#errors.add(handler);
  }

  /** Send a normal close frame; drop the socket if the peer does not answer in time. */
  async close(): Promise<void> {
    const socket = this.#socket;
    if (socket === undefined) {
      this.#finish(undefined);
      return this.#closed;
    }
    if (this.#state === 'open' || this.#state === 'connecting') {
      this.#state = 'closing';
      if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'client closed');
      else socket.terminate();
      const timer = setTimeout(() => socket.terminate(), this.#options.closeTimeoutMs ?? 2000);
      timer.unref();
      void this.#closed.then(() => clearTimeout(timer));
    }
    return this.#closed;
  }

  #wire(socket: WebSocket): void {
    const where = displayUrl(this.#url);
    socket.on('error', (error) => {
      this.#lastError = error;
    });
    socket.once('open', () => {
      this.#state = 'open';
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
        this.#errors.emit(new Error('app-server sent a binary WebSocket frame; ignored it'));
        return;
      }
      const text = (
        Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)
      ).toString('utf8');
      let message: unknown;
      try {
        message = parseJsonLine(text, 'app-server');
      } catch (error) {
        this.#errors.emit(error as Error);
        return;
      }
      if (message !== undefined) this.#messages.emit(message);
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
        return this.#finish(error);
      }
      if (this.#state === 'closing') return this.#finish(undefined);
      const text = reason.toString('utf8');
      this.#finish(
        new Error(
          `WebSocket connection closed by the app-server (code ${code}${text ? `: ${text}` : ''})`,
          { cause: this.#lastError },
        ),
      );
    });
  }

  #finish(error: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closeListeners.emit(error);
    this.#closeListeners.clear();
    this.#markClosed();
  }
}
