/**
 * The gateway's stdio wire: the SDK's `StdioServerTransport` behaviour (newline-delimited
 * JSON-RPC on stdin/stdout, split by mcprt's `LineFramer`; a line over 10 MiB fails the
 * connection; closing when stdin ends) with two differences. Each line is parsed once and offered
 * to `take` (the `tools/call` fast path, fastPath.ts) before the SDK sees it; a line `take`
 * declines goes through the SDK's own `deserializeMessage` (its zod check) to `onmessage` exactly
 * as the SDK transport would hand it over — a line that is not JSON is skipped silently, a JSON
 * value that is not a JSON-RPC message is reported to `onerror` and dropped, like the SDK does.
 * And messages sent in one tick leave in one write.
 */

import process from 'node:process';
import type { Readable, Writable } from 'node:stream';

import { LineFramer, LineTooLongError } from '@mcprt/base';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

/** The SDK transport's default bound on one unterminated line. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class GatewayStdioWire implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  /** Offered every parsed line first; `true`: served there, the SDK never sees it. */
  take: (message: unknown) => boolean = () => false;
  /** Told of every message written to stdout. */
  onsent: ((message: JSONRPCMessage) => void) | undefined;
  /** Settles when the wire has closed (stdin ended, or `close()`). */
  readonly closed: Promise<void>;

  private readonly framer = new LineFramer({
    maxLineBytes: MAX_LINE_BYTES,
    overflow: 'error',
    onLine: (line) => this.line(line),
  });
  private readonly queued: string[] = [];
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private started = false;
  private isClosed = false;
  private resolveClosed!: () => void;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error('GatewayStdioWire already started'));
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinClose);
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
    this.stdin.on('end', this.onStdinClose);
    this.stdin.on('close', this.onStdinClose);
    this.stdout.on('error', this.onStdoutError);
    return Promise.resolve();
  }

  /** Hand a message to the SDK as if the client had sent it (after the SDK's own check). */
  inject(message: unknown): void {
    if (this.isClosed) return;
    this.deliver(JSON.stringify(message));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.isClosed) return Promise.reject(new Error('the gateway stdio wire is closed'));
    const text = serializeMessage(message);
    this.onsent?.(message);
    return new Promise((resolve, reject) => {
      this.enqueue(text);
      this.waiting.push({ resolve, reject });
    });
  }

  /**
   * One serialized message from the fast path (a line, newline included): no promise and no
   * `onsent` — a write that fails fails the wire (`onStdoutError`), as for `send`.
   */
  write(line: string): void {
    if (!this.isClosed) this.enqueue(line);
  }

  private enqueue(text: string): void {
    if (this.queued.length === 0) process.nextTick(this.flush);
    this.queued.push(text);
  }

  /**
   * Messages sent in one tick (responses of calls that finished together, a progress and its
   * result) leave in one write: a pipe write wakes the reader and is paid per write (ADR 0019).
   */
  private readonly flush = (): void => {
    const queued = this.queued;
    const text = queued.length === 1 ? queued[0]! : queued.join('');
    queued.length = 0;
    if (this.waiting.length === 0) {
      // Only fast-path lines: nobody waits on the outcome.
      this.stdout.write(text);
      return;
    }
    const waiting = this.waiting;
    this.waiting = [];
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      this.stdout.off('error', onError);
      this.stdout.off('drain', onDrain);
      for (const w of waiting) {
        if (error === undefined) w.resolve();
        else w.reject(error);
      }
    };
    const onError = (error: Error) => settle(error);
    const onDrain = () => settle();
    this.stdout.once('error', onError);
    if (this.stdout.write(text)) settle();
    else if (!settled) this.stdout.once('drain', onDrain);
  };

  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    this.isClosed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    this.stdin.off('end', this.onStdinClose);
    this.stdin.off('close', this.onStdinClose);
    // The stdout error listener stays: it swallows late write failures once closed.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
    this.resolveClosed();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer): void => {
    try {
      this.framer.push(chunk);
    } catch (error) {
      // An unterminated line past the bound: the SDK transport fails the connection too.
      if (!(error instanceof LineTooLongError)) throw error;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${MAX_LINE_BYTES} bytes`));
      void this.close();
    }
  };

  private line(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // not JSON: the SDK's ReadBuffer skips such a line too
    }
    try {
      if (this.take(parsed)) return;
    } catch (error) {
      this.onerror?.(toError(error));
      return;
    }
    this.deliver(line);
  }

  private deliver(line: string): void {
    try {
      this.onmessage?.(deserializeMessage(line));
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }

  private readonly onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onStdoutError = (error: Error): void => {
    if (this.isClosed) return;
    this.onerror?.(error);
    void this.close();
  };

  private readonly onStdinClose = (): void => {
    void this.close();
  };
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
