/**
 * The transport contract between `McprtClient` and an app-server: whole JSON messages in and out,
 * one close signal. Framing (JSONL over stdio, one frame per message over WebSocket) is the
 * implementation's business; the implementations are re-exported here.
 */

import type { Unsubscribe } from '@mcprt/base';

/** Removes a handler registered with one of the `on*` methods. */
export type { Unsubscribe };

/** A bidirectional channel of JSON-RPC messages to one app-server. */
export interface ClientTransport {
  /**
   * Serialize and send one message. Throws when the transport is closed; never buffers across a
   * close.
   */
  send(message: object): void;
  /** Every parsed incoming message, in arrival order. Values are not validated. */
  onMessage(handler: (message: unknown) => void): Unsubscribe;
  /**
   * Called once when the channel is gone: without an error after `close()`, with one saying why
   * (exit status and stderr tail, close code, connection error) when it ended on its own.
   */
  onClose(handler: (error?: Error) => void): Unsubscribe;
  /**
   * Non-fatal problems on the channel: a line that is not JSON, a line over the size bound. The
   * transport keeps running after these.
   */
  onError?(handler: (error: Error) => void): Unsubscribe;
  /** Close the channel (and stop the peer the transport owns); resolves once it is closed. */
  close(): Promise<void>;
}

export { StdioTransport } from './stdioTransport.js';
export type { StdioTransportOptions } from './stdioTransport.js';
export { WebSocketTransport } from './webSocketTransport.js';
export type { WebSocketTransportOptions } from './webSocketTransport.js';
