/**
 * An app-server in this process, reached through the SDK like any other: `InProcessTransport`
 * implements the SDK's `ClientTransport` over `AppServer.attach()`. Messages cross as JSON text in
 * both directions and are delivered asynchronously (in order), so the client and the server see
 * exactly what a stdio or WebSocket connection would carry — the TUI has one code path for an
 * in-process and a remote app-server.
 */

import type { AppServer } from '@mcprt/app-server';
import type { ClientTransport, Unsubscribe } from '@mcprt/sdk';

type Peer = ReturnType<AppServer['attach']>;

export class InProcessTransport implements ClientTransport {
  readonly #peer: Peer;
  readonly #messageHandlers = new Set<(message: unknown) => void>();
  readonly #closeHandlers = new Set<(error?: Error) => void>();
  #closed = false;
  #closing = false;

  constructor(server: AppServer) {
    // Privileged: this process owns the app-server (the TUI's `/history --all` sees every call).
    this.#peer = server.attach(
      {
        send: (text) => queueMicrotask(() => this.#deliver(text)),
        close: () => this.#ended(),
      },
      { privileged: true },
    );
  }

  send(message: object): void {
    if (this.#closed) throw new Error('the in-process app-server connection is closed');
    const text = JSON.stringify(message);
    queueMicrotask(() => {
      if (!this.#closed) this.#peer.receive(text);
    });
  }

  onMessage(handler: (message: unknown) => void): Unsubscribe {
    this.#messageHandlers.add(handler);
    return () => {
      this.#messageHandlers.delete(handler);
    };
  }

  onClose(handler: (error?: Error) => void): Unsubscribe {
    this.#closeHandlers.add(handler);
    return () => {
      this.#closeHandlers.delete(handler);
    };
  }

  /** Ends the connection; the server closes the threads this connection started. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#peer.close();
    this.#ended();
  }

  #deliver(text: string): void {
    if (this.#closed) return;
    const message: unknown = JSON.parse(text);
    for (const handler of [...this.#messageHandlers]) handler(message);
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    const error = this.#closing
      ? undefined
      : new Error('the in-process app-server closed the connection');
    for (const handler of [...this.#closeHandlers]) handler(error);
    this.#closeHandlers.clear();
  }
}
