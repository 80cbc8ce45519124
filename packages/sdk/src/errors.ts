/**
 * Errors the SDK itself raises (as opposed to `ProtocolError`, which carries an error response
 * from the app-server): a request that outlived its timeout, a connection that went away.
 */

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
