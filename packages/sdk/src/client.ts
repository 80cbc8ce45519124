/**
 * `McprtClient`: the typed JSON-RPC client of the mcprt app-server. Owns the handshake, request
 * ids and their pending table (timeouts, aborts, close), notification fan-out (handlers and
 * async iterables) and answering server→client requests. Transports only move messages.
 */

import { PendingRequests } from '@mcprt/base';
import {
  classifyMessage,
  type ClientRequestMethod,
  type ClientRequestParams,
  type ClientRequestResult,
  ErrorCode,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcSuccess,
  type JsonRpcFailure,
  type RequestId,
  type ServerNotificationMethod,
  serverNotifications,
  type ServerRequestMethod,
} from '@mcprt/protocol';

import type {
  AnyServerNotification,
  ConnectOptions,
  McprtClientOptions,
  NotificationHandler,
  NotificationsOptions,
  RequestOptions,
  ServerNotification,
  ServerRequestHandler,
  SpawnOptions,
} from './clientTypes.js';
import { ConnectionClosedError, RequestTimeoutError, toProtocolError } from './errors.js';
import {
  createNotificationStream,
  type NotificationSink,
  type NotificationStream,
} from './notificationStream.js';
import {
  answerServerRequest,
  type ResponseBody,
  type StoredServerRequestHandler,
} from './serverRequests.js';
import { StdioTransport } from './stdioTransport.js';
import type { ClientTransport, Unsubscribe } from './transport.js';
import { SDK_VERSION } from './version.js';
import { WebSocketTransport } from './webSocketTransport.js';

const JSONRPC = '2.0';
const MAX_TIMEOUT_MS = 2_147_483_647;

type AnyNotificationHandler = (params: unknown, notification: ServerNotification) => unknown;

function checkTimeout(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMEOUT_MS) {
    throw new TypeError(
      `${name} must be a number of ms between 0 and ${MAX_TIMEOUT_MS}, got ${String(value)} (${typeof value})`,
    );
  }
}

const toError = (value: unknown): Error =>
  value instanceof Error ? value : new Error(String(value));

const isKnownNotification = (method: string): method is ServerNotificationMethod =>
  Object.hasOwn(serverNotifications, method);

/** A connected, initialized client. Open one with `spawn`, `connect` or `create`. */
export class McprtClient {
  readonly #transport: ClientTransport;
  readonly #options: McprtClientOptions;
  readonly #pending = new PendingRequests({
    timeoutError: (method, ms) => new RequestTimeoutError(method, ms),
  });
  readonly #handlers = new Map<string, Set<AnyNotificationHandler>>();
  readonly #streams = new Set<{
    method: string | undefined;
    sink: NotificationSink<ServerNotification>;
  }>();
  readonly #requestHandlers = new Map<string, StoredServerRequestHandler>();
  readonly #closeHandlers = new Set<(error?: Error) => void>();
  readonly #inFlight = new AbortController();
  #closed = false;
  #closeCause: Error | undefined;
  #initializeResult: ClientRequestResult<'initialize'> | undefined;

  private constructor(transport: ClientTransport, options: McprtClientOptions) {
    checkTimeout('requestTimeoutMs', options.requestTimeoutMs);
    checkTimeout('initializeTimeoutMs', options.initializeTimeoutMs);
    this.#transport = transport;
    this.#options = options;
    transport.onMessage((message) => this.#receive(message));
    transport.onClose((error) => this.#shutdown(error));
    transport.onError?.((error) => this.#report(error));
  }

  /**
   * Spawn an app-server (default: `node <@mcprt/cli>/dist/main.js app-server`) and complete the
   * handshake. The process is killed by `close()`.
   */
  static async spawn(options: SpawnOptions = {}): Promise<McprtClient> {
    const transport = new StdioTransport(options);
    const client = new McprtClient(transport, options);
    return McprtClient.#open(client, () => transport.start());
  }

  /** Connect to `mcprt app-server --listen ws://…` with its bearer token and handshake. */
  static async connect(url: string, options: ConnectOptions = {}): Promise<McprtClient> {
    const transport = new WebSocketTransport(url, options);
    const client = new McprtClient(transport, options);
    return McprtClient.#open(client, () => transport.connect());
  }

  /** Handshake over a transport that is already connected (e.g. an in-process one). */
  static async create(
    transport: ClientTransport,
    options: McprtClientOptions = {},
  ): Promise<McprtClient> {
    const client = new McprtClient(transport, options);
    return McprtClient.#open(client, async () => {});
  }

  static async #open(client: McprtClient, start: () => Promise<void>): Promise<McprtClient> {
    try {
      await start();
      await client.#initialize();
      return client;
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
  }

  async #initialize(): Promise<void> {
    const clientInfo = this.#options.clientInfo ?? {
      name: 'mcprt-sdk',
      title: 'mcprt SDK',
      version: SDK_VERSION,
    };
    this.#initializeResult = await this.request(
      'initialize',
      { clientInfo, capabilities: { experimentalApi: true } },
      { timeoutMs: this.#options.initializeTimeoutMs ?? 30_000 },
    );
    this.#transport.send({ jsonrpc: JSONRPC, method: 'initialized' });
  }

  /** The app-server's `initialize` result (user agent, config home, platform). */
  get initializeResult(): ClientRequestResult<'initialize'> {
    if (this.#initializeResult === undefined) throw new Error('the client is not initialized');
    return this.#initializeResult;
  }

  /** True once `close()` was called or the transport went away. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Send a request and resolve with its result as received. Rejects with `ProtocolError` for an
   * error response, `RequestTimeoutError` on timeout, `signal.reason` on abort and
   * `ConnectionClosedError` when the connection is or becomes closed.
   */
  request<M extends ClientRequestMethod>(
    method: M,
    params: ClientRequestParams<M>,
    options: RequestOptions = {},
  ): Promise<ClientRequestResult<M>> {
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs;
    try {
      checkTimeout('timeoutMs', options.timeoutMs);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    if (this.#closed) return Promise.reject(this.#closedError(`${method} was not sent`));
    if (signal?.aborted) return Promise.reject(toError(signal.reason));

    const { id, promise } = this.#pending.add(method, { timeoutMs, signal });
    // Tell the server too (`$/cancelRequest`): for a tool call the MCP server then receives
    // `notifications/cancelled`.
    signal?.addEventListener('abort', () => this.#sendCancel(id), { once: true });
    try {
      this.#transport.send(
        params === undefined
          ? { jsonrpc: JSONRPC, id, method }
          : { jsonrpc: JSONRPC, id, method, params },
      );
    } catch (error) {
      this.#pending.reject(id, this.#closed ? this.#closedError(`${method} was not sent`) : error);
    }
    return promise as Promise<ClientRequestResult<M>>;
  }

  #sendCancel(id: RequestId): void {
    if (this.#closed) return;
    try {
      this.#transport.send({ jsonrpc: JSONRPC, method: '$/cancelRequest', params: { id } });
    } catch {
      // the connection is going away; the request is rejected locally either way
    }
  }

  /** Call `handler` for each notification of `method`; returns the unsubscribe function. */
  on<M extends ServerNotificationMethod>(method: M, handler: NotificationHandler<M>): Unsubscribe {
    let set = this.#handlers.get(method);
    if (set === undefined) this.#handlers.set(method, (set = new Set()));
    const entry = handler as unknown as AnyNotificationHandler;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /**
   * Notifications as an async iterable: of one method, or of every method of the table. Buffers
   * from this call on (not from the first `next()`); ends when the client closes, when the stream
   * is closed (or `break`) or when `signal` aborts.
   */
  notifications<M extends ServerNotificationMethod>(
    method: M,
    options?: NotificationsOptions,
  ): NotificationStream<ServerNotification<M>>;
  notifications(
    method?: undefined,
    options?: NotificationsOptions,
  ): NotificationStream<AnyServerNotification>;
  notifications(
    method?: ServerNotificationMethod,
    options: NotificationsOptions = {},
  ): NotificationStream<ServerNotification> {
    const { signal } = options;
    const onAbort = (): void => stream.close();
    const { stream, sink } = createNotificationStream<ServerNotification>(() => {
      this.#streams.delete(entry);
      signal?.removeEventListener('abort', onAbort);
    });
    const entry = { method, sink };
    this.#streams.add(entry);
    if (this.#closed || signal?.aborted) sink.end();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return stream;
  }

  /**
   * Answer server→client requests of `method` with `handler` (replacing an earlier one). Without
   * a handler, `mcpServer/elicitation/request` is declined and anything else gets -32601.
   */
  handleRequest<M extends ServerRequestMethod>(
    method: M,
    handler: ServerRequestHandler<M>,
  ): Unsubscribe {
    const entry = handler as unknown as StoredServerRequestHandler;
    this.#requestHandlers.set(method, entry);
    return () => {
      if (this.#requestHandlers.get(method) === entry) this.#requestHandlers.delete(method);
    };
  }

  /** Called once when the connection ends: with the transport's error if it went away on its own. */
  onClose(handler: (error?: Error) => void): Unsubscribe {
    this.#closeHandlers.add(handler);
    return () => {
      this.#closeHandlers.delete(handler);
    };
  }

  /** Close the connection (killing a spawned app-server); pending requests reject. */
  async close(): Promise<void> {
    this.#shutdown(undefined);
    await this.#transport.close();
  }

  #receive(value: unknown): void {
    try {
      const classified = classifyMessage(value);
      switch (classified.kind) {
        case 'response':
          return this.#onResponse(classified.message);
        case 'notification':
          return this.#onNotification(classified.message);
        case 'request':
          return void this.#onServerRequest(classified.message);
        case 'invalid':
          this.#report(new Error(`app-server sent an invalid message: ${classified.reason}`));
          // A malformed request still gets an answer, so the server never waits on us.
          if (
            classified.id !== null &&
            typeof value === 'object' &&
            value !== null &&
            'method' in value
          ) {
            this.#respond(classified.id, {
              error: { code: ErrorCode.InvalidRequest, message: classified.reason },
            });
          }
      }
    } catch (error) {
      this.#report(toError(error));
    }
  }

  #onResponse(message: JsonRpcSuccess | JsonRpcFailure): void {
    // Late answers to timed-out or aborted requests are expected; answers to ids never sent are not.
    const outcome =
      'error' in message
        ? { ok: false as const, error: toProtocolError(message.error) }
        : { ok: true as const, value: message.result };
    if (this.#pending.settle(message.id, outcome) === 'unknown') {
      const detail = 'error' in message ? `: ${JSON.stringify(message.error)}` : '';
      this.#report(
        new Error(`app-server answered unknown request id ${String(message.id)}${detail}`),
      );
    }
  }

  #onNotification(message: JsonRpcNotification): void {
    const notification: ServerNotification = {
      method: message.method as ServerNotificationMethod,
      params: message.params as ServerNotification['params'],
      ...(typeof message.emittedAtMs === 'number' ? { emittedAtMs: message.emittedAtMs } : {}),
    };
    for (const handler of [...(this.#handlers.get(message.method) ?? [])]) {
      try {
        const returned = handler(message.params, notification);
        if (returned instanceof Promise)
          returned.catch((error: unknown) => this.#report(toError(error)));
      } catch (error) {
        this.#report(toError(error));
      }
    }
    const known = isKnownNotification(message.method);
    for (const { method, sink } of [...this.#streams]) {
      if (method === message.method || (method === undefined && known)) sink.push(notification);
    }
  }

  async #onServerRequest(message: JsonRpcRequest): Promise<void> {
    const handler = this.#requestHandlers.get(message.method);
    const context = { id: message.id, method: message.method, signal: this.#inFlight.signal };
    this.#respond(message.id, await answerServerRequest(handler, message.params, context));
  }

  #respond(id: RequestId, body: ResponseBody): void {
    if (this.#closed) return;
    try {
      this.#transport.send({ jsonrpc: JSONRPC, id, ...body });
    } catch (error) {
      this.#report(toError(error));
    }
  }

  #shutdown(cause: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeCause = cause;
    this.#pending.rejectAll((method, id) =>
      this.#closedError(`${method} (request ${String(id)}) got no response`),
    );
    for (const { sink } of [...this.#streams]) sink.end();
    this.#inFlight.abort(this.#closedError('the server request was abandoned'));
    for (const handler of [...this.#closeHandlers]) {
      try {
        handler(cause);
      } catch (error) {
        this.#report(toError(error));
      }
    }
    this.#closeHandlers.clear();
  }

  #closedError(what: string): ConnectionClosedError {
    const cause = this.#closeCause;
    const why = cause === undefined ? 'the client was closed' : `connection lost: ${cause.message}`;
    return new ConnectionClosedError(
      `${what}: ${why}`,
      cause === undefined ? undefined : { cause },
    );
  }

  #report(error: Error): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // The error sink itself failed; nothing sensible is left to tell.
    }
  }
}
