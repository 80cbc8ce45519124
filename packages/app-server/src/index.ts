/** Public API of `@mcprt/app-server`. */

export { AppServer, APP_SERVER_VERSION, DEFAULT_MAX_MESSAGE_BYTES } from './appServer.js';
export type { AppServerOptions } from './appServer.js';
export { serveStdio } from './transports/stdio.js';
export { listenWebSocket } from './transports/websocket.js';
export {
  isLoopbackHost,
  bearerMatches,
  bracketed,
  unbracket,
  checkListenerOptions,
  ListenError,
  MIN_TOKEN_LENGTH,
} from '@mcprt/base';
export type { WebSocketListenOptions, WebSocketListener } from './transports/websocket.js';
export { DEFAULT_PROBE_TTL_MS } from './probe.js';
