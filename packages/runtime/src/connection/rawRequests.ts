/**
 * JSON-RPC requests sent on a connection's transport under ids of our own (`mcprt.task.N`), their
 * answers taken off the transport before the MCP SDK sees them — for the task extension's
 * messages (tasks.ts), whose results the SDK's era codecs do not accept (a 2026 `tools/call`
 * answered `resultType: "task"`, `tasks/update`). Works on any SDK transport (stdio, streamable
 * HTTP) by wrapping its `onmessage` once the SDK has connected. On 2026-07-28 a request carries
 * the SDK's per-request `_meta` envelope, as every other request of the connection.
 *
 * Settles like the SDK's own requests: a JSON-RPC error rejects with the SDK's `ProtocolError`
 * (code, message, data), the timeout with `Request timed out`, an abort with its reason (both
 * followed by `notifications/cancelled`), a transport that ends with "Connection closed".
 */

import type { Client, Transport } from '@modelcontextprotocol/client';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import { envelope } from './sdkInternals.js';

// Not the fast path's `mcprt-` (fastToolCalls.ts takes every id of that prefix as its own).
const PREFIX = 'mcprt.task.';

export interface RawRequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout>;
  cleanup(): void;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class RawRequests {
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(
    private readonly transport: Transport,
    private readonly client: Client,
  ) {
    const previous = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (this.claim(message)) return;
      previous?.call(transport, message, extra);
    };
    const previousClose = transport.onclose;
    transport.onclose = () => {
      this.failAll(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      previousClose?.call(transport);
    };
  }

  /** Send `method` with `params`; resolves with the raw `result` object. */
  request(
    method: string,
    params: Record<string, unknown>,
    options: RawRequestOptions,
  ): Promise<Record<string, unknown>> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    if (this.closed) {
      return Promise.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    }
    const id = PREFIX + String(this.nextId++);
    return new Promise((resolve, reject) => {
      const onAbort = () => this.cancel(id, abortError(signal?.reason));
      const entry: Pending = {
        resolve,
        reject,
        timer: setTimeout(
          () => this.cancel(id, new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out')),
          Math.max(1, options.timeoutMs),
        ),
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      this.pending.set(id, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      const message = envelope(this.client, { jsonrpc: '2.0' as const, id, method, params });
      this.transport.send(message).catch((error: unknown) => this.settle(id, error));
    });
  }

  /** Fail every request still waiting (the connection is closing). */
  failAll(error: unknown): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, error);
  }

  /** Timed out or aborted: tell the server, then fail the request. */
  private cancel(id: string, error: Error): void {
    if (!this.pending.has(id)) return;
    const notification = envelope(this.client, {
      jsonrpc: '2.0' as const,
      method: 'notifications/cancelled',
      params: { requestId: id, reason: error.message },
    });
    this.transport.send(notification).catch(() => undefined);
    this.settle(id, error);
  }

  private settle(id: string, error: unknown, result?: Record<string, unknown>): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.cleanup();
    if (result !== undefined) entry.resolve(result);
    else entry.reject(error);
  }

  /** A message from the server: true when it answers one of ours. */
  private claim(message: unknown): boolean {
    if (!isObject(message) || 'method' in message) return false;
    const id = message['id'];
    if (typeof id !== 'string' || !id.startsWith(PREFIX)) return false;
    const error = message['error'];
    if (isObject(message['result'])) this.settle(id, null, message['result']);
    else if (isObject(error) && typeof error['code'] === 'number') {
      const text = typeof error['message'] === 'string' ? error['message'] : '';
      this.settle(id, ProtocolError.fromError(error['code'], text, error['data']));
    } else {
      this.settle(id, new SdkError(SdkErrorCode.InvalidResult, 'Invalid result: not an object'));
    }
    return true;
  }
}

function abortError(reason: unknown): Error {
  return reason instanceof Error
    ? reason
    : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
