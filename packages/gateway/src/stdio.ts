/**
 * The gateway over stdio: the SDK's `serveStdio` owns the era decision (a 2025 `initialize` or a
 * 2026-07-28 `server/discover` opening) and pins one gateway server instance to the connection.
 * The wire under it is the gateway's own (stdioWire.ts): it offers each line to the `tools/call`
 * fast path (fastPath.ts) before the SDK sees it. The returned `closed` settles when the client
 * closes its end, so `mcprt serve` can shut down.
 */

import type { Readable, Writable } from 'node:stream';

import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { FastToolCalls } from './fastPath.js';
import type { Gateway } from './gateway.js';
import { GatewayStdioWire } from './stdioWire.js';

export interface GatewayStdioHandle {
  /** Settles when the connection has ended (stdin closed, or `close()`). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export function serveGatewayStdio(
  gateway: Gateway,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): GatewayStdioHandle {
  const wire = new GatewayStdioWire(streams.stdin, streams.stdout);
  // One client: the process that started the gateway, served by the fast path and the SDK alike.
  const client = gateway.local();
  const fast = new FastToolCalls(client, wire);
  wire.take = (message) => {
    gateway.noteClientMessage(message); // before the servers start (uiResources.ts)
    return fast.take(message);
  };
  wire.onsent = (message) => fast.sent(message);
  const closed = wire.closed.then(() => fast.close());
  const handle = serveStdio(
    ({ era }) => fast.instance(era, gateway.createServer({ era, track: true, client })),
    { transport: wire, onerror: (error) => gateway.logLocal('debug', `stdio: ${error.message}`) },
  );
  return { closed, close: () => handle.close() };
}
