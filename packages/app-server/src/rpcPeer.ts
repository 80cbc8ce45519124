/**
 * One connected client, independent of transport: parses each incoming message, answers
 * protocol-level problems itself (parse errors, invalid envelopes, requests before
 * `initialize`), hands valid requests to the dispatcher, and sends responses, notifications
 * (with `emittedAtMs`, as Codex does) and server→client requests. It answers in the style the
 * client used: with `"jsonrpc":"2.0"` only if the client sent it.
 *
 * `notifySoon` holds a notification for up to `NOTIFY_SOON_MS` (ADR 0019): a tool call's
 * `item/started` then leaves in the same write as its `item/completed` and response when the call
 * is that fast, instead of waking the client once more. Held messages are sent before anything
 * else is, so the order of messages on the wire never changes; only the moment does.
 */

import { PendingRequests } from '@mcprt/base';
import type { JsonRpcErrorObject, RequestId } from '@mcprt/protocol';
import { classifyMessage, ErrorCode, ProtocolError } from '@mcprt/protocol';

import { EncodedJson } from './encodedJson.js';

export interface PeerIo {
  send(text: string): void;
  close(): void;
}

export interface IncomingRequest {
  readonly id: RequestId;
  /**
   * Calls `cancel` when `$/cancelRequest` names this id or the connection closes (at once if
   * that already happened); returns the function that unregisters it. No `AbortSignal` is made
   * per request: creating one is among the largest costs of a tool call (docs/adr/0022).
   */
  onCancel(cancel: () => void): () => void;
}

/** An incoming request and its cancellation state: at most one canceller (its handler's). */
class RequestCancel implements IncomingRequest {
  cancelled = false;
  cancel: (() => void) | undefined = undefined;

  constructor(readonly id: RequestId) {}

  onCancel(cancel: () => void): () => void {
    if (this.cancelled) cancel();
    else this.cancel = cancel;
    return () => {
      if (this.cancel === cancel) this.cancel = undefined;
    };
  }

  trigger(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const cancel = this.cancel;
    this.cancel = undefined;
    cancel?.();
  }
}

export interface Dispatcher {
  /** Handle a request; resolve with its result or reject (ProtocolError keeps its code). */
  handleRequest(
    peer: RpcPeer,
    method: string,
    params: unknown,
    request: IncomingRequest,
  ): Promise<unknown>;
  handleNotification(peer: RpcPeer, method: string, params: unknown): void;
  onClose(peer: RpcPeer): void;
  /**
   * What a rejection of `handleRequest` is answered with (default: the error itself); lets a
   * dispatcher return its handler's promise as is instead of wrapping it to translate errors.
   */
  wireError?(error: unknown): unknown;
}

let nextPeerId = 1;

/** How long `notifySoon` may hold a notification (ADR 0019). */
export const NOTIFY_SOON_MS = 1;

export class RpcPeer {
  readonly id = nextPeerId++;
  initialized = false;
  experimentalApi = false;
  clientName: string | null = null;
  private jsonrpc = false;
  private closed = false;
  private readonly incoming = new Map<RequestId, RequestCancel>();
  /** Server→client requests awaiting the client's answer (ids from 0, as Codex's). */
  private readonly pending = new PendingRequests({ firstId: 0 });
  /**
   * Notifications held by `notifySoon` (their text), in order, and the timer that sends them.
   * The timer is re-armed (`refresh`), never cleared while the peer is open: one timer serves
   * every call instead of one made and cancelled per call; firing with nothing held is a no-op.
   */
  private held: string[] = [];
  private heldTimer: NodeJS.Timeout | undefined;
  /** `notificationHead`s by method, without and with `"jsonrpc":"2.0"` (few methods use it). */
  private readonly heads = new Map<string, string>();
  private readonly heads2 = new Map<string, string>();

  constructor(
    private readonly io: PeerIo,
    private readonly dispatcher: Dispatcher,
    /**
     * A connection of the process that owns the app-server (stdio, in-process): `history/list`
     * may read every thread's calls. WebSocket connections never are (docs/security.md).
     */
    readonly privileged = false,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** One complete message text (a JSONL line or a WebSocket frame). */
  receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.sendError(
        null,
        new ProtocolError(ErrorCode.ParseError, `Parse error: ${(error as Error).message}`),
      );
      return;
    }
    if (
      typeof value === 'object' &&
      value !== null &&
      (value as { jsonrpc?: unknown }).jsonrpc === '2.0'
    ) {
      this.jsonrpc = true;
    }
    const msg = classifyMessage(value);
    switch (msg.kind) {
      case 'invalid':
        this.sendError(msg.id, new ProtocolError(ErrorCode.InvalidRequest, msg.reason));
        return;
      case 'response':
        this.settle(msg.message);
        return;
      case 'notification':
        if (msg.message.method === '$/cancelRequest') {
          const id = (msg.message.params as { id?: unknown } | null)?.id;
          if (typeof id === 'string' || typeof id === 'number') this.incoming.get(id)?.trigger();
          return;
        }
        this.dispatcher.handleNotification(this, msg.message.method, msg.message.params);
        return;
      case 'request': {
        const { id, method, params } = msg.message;
        const request = new RequestCancel(id);
        this.incoming.set(id, request);
        this.dispatcher.handleRequest(this, method, params, request).then(
          (result) => {
            if (this.incoming.get(id) === request) this.incoming.delete(id);
            if (result instanceof EncodedJson) this.writeText(this.responseText(id, result.text));
            else this.write({ id, result });
          },
          (error: unknown) => {
            if (this.incoming.get(id) === request) this.incoming.delete(id);
            const dispatcher = this.dispatcher;
            this.sendError(id, dispatcher.wireError ? dispatcher.wireError(error) : error);
          },
        );
      }
    }
  }

  /** Report an oversized message that was dropped. */
  oversize(bytes: number, limit: number): void {
    this.sendError(
      null,
      new ProtocolError(
        ErrorCode.InvalidRequest,
        `message of ${bytes} bytes exceeds the maximum of ${limit} bytes; it was dropped`,
      ),
    );
  }

  notify(method: string, params: unknown): void {
    this.write({ method, params, emittedAtMs: Date.now() });
  }

  /** `notify` with params given as their JSON text. */
  notifyEncoded(method: string, params: string): void {
    this.writeText(this.notificationText(method, params));
  }

  /**
   * A notification that may wait up to `NOTIFY_SOON_MS` for the next message, to leave in the
   * same write (`emittedAtMs` stays the moment it was emitted). Anything sent meanwhile sends it
   * first.
   */
  notifySoon(method: string, params: unknown): void {
    this.holdText(this.encode({ method, params, emittedAtMs: Date.now() }));
  }

  /** `notifySoon` with params given as their JSON text. */
  notifySoonEncoded(method: string, params: string): void {
    this.holdText(this.notificationText(method, params));
  }

  /** Send a server→client request and wait for the client's answer. */
  request(method: string, params: unknown): Promise<unknown> {
    return this.requestWithId(method, params).response;
  }

  /** Like `request`, also telling the id used (for `serverRequest/resolved`). */
  requestWithId(method: string, params: unknown): { id: number; response: Promise<unknown> } {
    const { id, promise } = this.pending.add(method);
    if (this.closed) this.pending.reject(id, new Error('client connection closed'));
    else this.write({ id, method, params });
    return { id, response: promise };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.heldTimer);
    this.held = [];
    for (const state of this.incoming.values()) state.trigger();
    this.incoming.clear();
    this.pending.rejectAll(() => new Error('client connection closed'));
    this.dispatcher.onClose(this);
    this.io.close();
  }

  private settle(message: {
    id: RequestId | null;
    result?: unknown;
    error?: JsonRpcErrorObject;
  }): void {
    this.pending.settle(
      message.id,
      message.error
        ? { ok: false, error: ProtocolError.fromObject(message.error) }
        : { ok: true, value: message.result },
    );
  }

  private sendError(id: RequestId | null, error: unknown): void {
    const protocolError =
      error instanceof ProtocolError
        ? error
        : new ProtocolError(
            ErrorCode.InternalError,
            error instanceof Error ? error.message : String(error),
          );
    this.write({ id, error: protocolError.toJSON() });
  }

  private holdText(text: string): void {
    if (this.closed) return;
    if (this.held.length === 0) {
      if (this.heldTimer === undefined) {
        this.heldTimer = setTimeout(() => this.sendHeld(), NOTIFY_SOON_MS);
      } else this.heldTimer.refresh();
    }
    this.held.push(text);
  }

  private sendHeld(): void {
    const held = this.held;
    if (held.length === 0) return;
    this.held = [];
    for (const text of held) this.io.send(text);
  }

  private write(message: Record<string, unknown>): void {
    this.writeText(this.encode(message));
  }

  private writeText(text: string): void {
    if (this.closed) return;
    if (this.held.length > 0) this.sendHeld();
    this.io.send(text);
  }

  private encode(message: Record<string, unknown>): string {
    return JSON.stringify(this.jsonrpc ? { jsonrpc: '2.0', ...message } : message);
  }

  /** Exactly what `encode` makes of `{ method, params, emittedAtMs: now }`. */
  private notificationText(method: string, params: string): string {
    return `${this.notificationHead(method)}${params},"emittedAtMs":${Date.now()}}`;
  }

  /** A notification's text up to its params, made once per method (and envelope style). */
  private notificationHead(method: string): string {
    const heads = this.jsonrpc ? this.heads2 : this.heads;
    let head = heads.get(method);
    if (head === undefined) {
      head = `${this.jsonrpc ? '{"jsonrpc":"2.0",' : '{'}"method":${JSON.stringify(method)},"params":`;
      heads.set(method, head);
    }
    return head;
  }

  /** Exactly what `encode` makes of `{ id, result }`. */
  private responseText(id: RequestId, result: string): string {
    return `${this.jsonrpc ? '{"jsonrpc":"2.0",' : '{'}"id":${JSON.stringify(id)},"result":${result}}`;
  }
}
