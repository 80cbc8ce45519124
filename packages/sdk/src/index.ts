/**
 * `@mcprt/sdk`: the typed client of the mcprt app-server. Every export is listed by name;
 * adding one is an API decision.
 */

export { ErrorCode, ProtocolError } from '@mcprt/protocol';

export { McprtClient } from './client.js';
export type {
  AnyServerNotification,
  ClientInfo,
  ConnectOptions,
  McprtClientOptions,
  NotificationHandler,
  NotificationsOptions,
  RequestOptions,
  ServerNotification,
  ServerRequestContext,
  ServerRequestHandler,
  SpawnOptions,
} from './clientTypes.js';
export { ConnectionClosedError, RequestTimeoutError } from './errors.js';
export type { NotificationStream } from './notificationStream.js';
export { defaultAppServerCommand, StdioTransport } from './stdioTransport.js';
export type { StdioTransportOptions } from './stdioTransport.js';
export type { ClientTransport, Unsubscribe } from './transport.js';
export { sanitizeTerminalText } from './terminalText.js';
export type { SanitizeOptions } from './terminalText.js';
export { SDK_VERSION } from './version.js';
export { WebSocketTransport } from './webSocketTransport.js';
export type { WebSocketTransportOptions } from './webSocketTransport.js';
