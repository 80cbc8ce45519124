/**
 * Errors the SDK itself raises (as opposed to `ProtocolError`, which carries an error response
 * from the app-server): a request that outlived its timeout, a connection that went away; and how
 * a received error object becomes a `ProtocolError`.
 */

import { ErrorCode, ProtocolError } from '@mcprt/protocol';

/** A request got no response within its `timeoutMs`; its id is forgotten. */
export class RequestTimeoutError extends Error {
  readonly method: string;
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super(`${method} timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection to the app-server is closed (by `close()`, or because the process or socket
 * went away, which is then the `cause`). Pending and later requests reject with it.
 */
export class ConnectionClosedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionClosedError';
  }
}

/** Rebuild a `ProtocolError` from a received error object, tolerating a malformed one. */
export function toProtocolError(error: unknown): ProtocolError {
  if (typeof error === 'object' && error !== null) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code === 'number' && typeof message === 'string') {
      return new ProtocolError(code, message, data);
    }
  }
  return new ProtocolError(
    ErrorCode.InternalError,
    'app-server sent a malformed error response',
    error,
  );
}
