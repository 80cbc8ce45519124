/**
 * What every `ClientTransport` of the SDK shares: its lifecycle state, the listener sets for
 * messages, the close and non-fatal errors, turning one received text (a JSONL line or a
 * WebSocket frame) into a message or a reported error, and ending exactly once.
 */

import { Listeners } from '@mcprt/base';

import { parseJsonLine } from './jsonLine.js';
import type { ClientTransport, Unsubscribe } from './transport.js';

export type TransportState = 'new' | 'connecting' | 'open' | 'closing' | 'closed';

export abstract class TransportBase implements ClientTransport {
  protected state: TransportState = 'new';
  /** Non-fatal problems (a line that is not JSON, one over the size bound). */
  protected readonly errors = new Listeners<[Error]>();
  /** Settles once the transport has ended. */
  protected readonly ended: Promise<void>;
  readonly #messages = new Listeners<[unknown]>();
  readonly #closeListeners = new Listeners<[Error | undefined]>();
  #closeError: Error | undefined;
  #markEnded!: () => void;

  constructor() {
    this.ended = new Promise((resolve) => {
      this.#markEnded = resolve;
    });
  }

  abstract send(message: object): void;
  abstract close(): Promise<void>;

  onMessage(handler: (message: unknown) => void): Unsubscribe {
    return this.#messages.add(handler);
  }

  onClose(handler: (error?: Error) => void): Unsubscribe {
    return this.#closeListeners.add(handler);
  }

  onError(handler: (error: Error) => void): Unsubscribe {
    return this.errors.add(handler);
  }

  /** Why the transport closed, if it closed on its own. */
  get closeError(): Error | undefined {
    return this.#closeError;
  }

  /** Throws unless the transport is open (sending never buffers across a close). */
  protected assertOpen(): void {
    if (this.state !== 'open') {
      throw new Error(`cannot send: the app-server transport is ${this.state}`);
    }
  }

  /** One complete received text: a message for the listeners, or a reported error. */
  protected receive(text: string): void {
    let message: unknown;
    try {
      message = parseJsonLine(text, 'app-server');
    } catch (error) {
      this.errors.emit(error as Error);
      return;
    }
    if (message !== undefined) this.#messages.emit(message);
  }

  /** End the transport (once): close listeners hear `error`, then `ended` settles. */
  protected finish(error: Error | undefined): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.#closeError = error;
    this.#closeListeners.emit(error);
    this.#closeListeners.clear();
    this.#markEnded();
  }
}
