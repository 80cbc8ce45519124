/**
 * Types of the `McprtClient` surface: options, request options, notification envelopes and
 * handler signatures. Importing them never pulls in an implementation.
 */

import type {
  RequestId,
  ServerNotificationMethod,
  ServerNotificationParams,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
} from '@mcprt/protocol';

import type { StdioTransportOptions } from './stdioTransport.js';
import type { WebSocketTransportOptions } from './webSocketTransport.js';

/** Who the client is; sent in `initialize` (`name` and `version` end up in the user agent). */
// A type alias (not an interface) so it fits the protocol's loose object with an index signature.
export type ClientInfo = {
  readonly name: string;
  readonly title?: string;
  readonly version: string;
};

/** Options shared by every way of opening a client. */
export interface McprtClientOptions {
  /** Default: `{name: 'mcprt-sdk', title: 'mcprt SDK', version: SDK_VERSION}`. */
  readonly clientInfo?: ClientInfo;
  /** Default timeout of every request, in ms. Default: none (a request waits for its response). */
  readonly requestTimeoutMs?: number;
  /** Timeout of the `initialize` request, in ms (default 30000). */
  readonly initializeTimeoutMs?: number;
  /**
   * Non-fatal problems: an unparsable line, an invalid message, a response to an id never sent,
   * a notification or server-request handler that threw. Default: ignored.
   */
  readonly onError?: (error: Error) => void;
}

/** `McprtClient.spawn()` options: the stdio transport's and the client's. */
export type SpawnOptions = StdioTransportOptions & McprtClientOptions;

/** `McprtClient.connect()` options: the WebSocket transport's (incl. `token`) and the client's. */
export type ConnectOptions = WebSocketTransportOptions & McprtClientOptions;

/** Per-request options. */
export interface RequestOptions {
  /** Aborting rejects the request with `signal.reason` and forgets its id. */
  readonly signal?: AbortSignal;
  /** Overrides `requestTimeoutMs`; on expiry the request rejects with `RequestTimeoutError`. */
  readonly timeoutMs?: number;
}

/** One received notification of a known method. `emittedAtMs` is set by Codex-style servers. */
export interface ServerNotification<M extends ServerNotificationMethod = ServerNotificationMethod> {
  readonly method: M;
  readonly params: ServerNotificationParams<M>;
  readonly emittedAtMs?: number;
}

/** Any notification of the method table, discriminated by `method`. */
export type AnyServerNotification = {
  [M in ServerNotificationMethod]: ServerNotification<M>;
}[ServerNotificationMethod];

/** Handler for one notification method. Params are passed as received (not validated). */
export type NotificationHandler<M extends ServerNotificationMethod> = (
  params: ServerNotificationParams<M>,
  notification: ServerNotification<M>,
) => void | Promise<void>;

/** Context of one server→client request. */
export interface ServerRequestContext<M extends ServerRequestMethod = ServerRequestMethod> {
  readonly id: RequestId;
  readonly method: M;
  /** Aborted when the client closes while the handler is still running. */
  readonly signal: AbortSignal;
}

/**
 * Answers one server→client request. Return the result; throw a `ProtocolError` to answer with
 * that error, anything else becomes -32603 with the error's message.
 */
export type ServerRequestHandler<M extends ServerRequestMethod> = (
  params: ServerRequestParams<M>,
  context: ServerRequestContext<M>,
) => ServerRequestResult<M> | Promise<ServerRequestResult<M>>;

/** Options of `notifications()`. */
export interface NotificationsOptions {
  /** Aborting ends the iteration (like `close()` on the stream). */
  readonly signal?: AbortSignal;
}
