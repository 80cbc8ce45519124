/**
 * App-server methods the TUI uses that a server may not implement: an older remote app-server, or
 * another implementation of the protocol, may lack mcprt's extensions (`mcpServer/oauth/logout`,
 * `mcpServer/oauth/login/submitRedirect`, `history/list`, `thread/toolView/get`) or OAuth
 * altogether. Whatever the method, a server that answers -32601 (method not found) makes the call
 * a `MethodUnavailableError`, whose message the user sees inline instead of a protocol error (the
 * tool costs of `/mcp` are left out instead).
 */

import { ErrorCode, ProtocolError } from '@mcprt/sdk';

export const OPTIONAL_METHODS = {
  login: {
    method: 'mcpServer/oauth/login',
    unavailable: 'OAuth login is not available in this build',
  },
  logout: {
    method: 'mcpServer/oauth/logout',
    unavailable: 'OAuth logout is not available on this app-server (use `mcprt mcp logout`)',
  },
  submitRedirect: {
    method: 'mcpServer/oauth/login/submitRedirect',
    unavailable:
      'This app-server cannot take a pasted redirect URL: open the authorization URL in a browser on the machine it runs on',
  },
  history: {
    method: 'history/list',
    unavailable: 'History is not available in this build',
  },
  toolView: {
    method: 'thread/toolView/get',
    unavailable: 'Tool costs are not available on this app-server',
  },
} as const;

export type OptionalFeature = keyof typeof OPTIONAL_METHODS;

/** The server does not implement the method (it answered -32601). */
export class MethodUnavailableError extends Error {
  readonly code = 'METHOD_UNAVAILABLE';
  constructor(
    readonly feature: OptionalFeature,
    options?: { cause?: unknown },
  ) {
    super(OPTIONAL_METHODS[feature].unavailable, options);
    this.name = 'MethodUnavailableError';
  }
}

/** Run the feature's request; a -32601 answer becomes `MethodUnavailableError`. */
export async function whenAvailable<T>(
  feature: OptionalFeature,
  request: () => Promise<T>,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.MethodNotFound)
      throw new MethodUnavailableError(feature, { cause: error });
    throw error;
  }
}
