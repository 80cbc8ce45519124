/**
 * The gateway over stdio: the SDK's `serveStdio` owns the era decision (a 2025 `initialize` or a
 * 2026-07-28 `server/discover` opening) and pins one gateway server instance to the connection.
 * The returned `closed` settles when the client closes its end, so `mcprt serve` can shut down.
 */

import type { Readable, Writable } from 'node:stream';

import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import type { Gateway } from './gateway.js';

export interface GatewayStdioHandle {
  /** Settles when the connection has ended (stdin closed, or `close()`). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export function serveGatewayStdio(
  gateway: Gateway,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): GatewayStdioHandle {
  const transport = new ObservedTransport(new StdioServerTransport(streams.stdin, streams.stdout));
  const handle = serveStdio(({ era }) => gateway.createServer({ era, track: true }), {
    transport,
    onerror: (error) => gateway.log('debug', `stdio: ${error.message}`),
  });
  return { closed: transport.closed, close: () => handle.close() };
}

/** A transport that also tells us when it closed (the entry owns the inner one's callbacks). */
class ObservedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly closed: Promise<void>;

  constructor(private readonly inner: Transport) {
    let resolve!: () => void;
    this.closed = new Promise((r) => (resolve = r));
    inner.onclose = () => {
      this.onclose?.();
      resolve();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
