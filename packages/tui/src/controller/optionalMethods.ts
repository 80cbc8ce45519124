/**
 * App-server methods the TUI uses that a server may not implement. `mcpServer/oauth/logout` is
 * not in this build's protocol table: it is sent untyped through `untypedRequest`, and when it
 * lands in `@mcprt/protocol`'s registry the call site in controller.ts becomes a typed
 * `client.request(...)` (as `mcpServer/oauth/login` and `history/list` already are). Whatever the
 * method, a server that answers -32601 (method not found, e.g. a build or an older remote server
 * without it) becomes `MethodUnavailableError`, whose message the user sees inline.
 */

import { ErrorCode, ProtocolError } from '@mcprt/sdk';
import type { McprtClient } from '@mcprt/sdk';

export const OPTIONAL_METHODS = {
  login: {
    method: 'mcpServer/oauth/login',
    unavailable: 'OAuth login is not available in this build',
  },
  logout: {
    method: 'mcpServer/oauth/logout',
    unavailable: 'OAuth logout is not available in this build',
  },
  history: {
    method: 'history/list',
    unavailable: 'History is not available in this build',
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

type UntypedRequest = (method: string, params: unknown) => Promise<unknown>;

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

/** Send a request whose method the protocol table does not list yet. */
export function untypedRequest(
  client: McprtClient,
  method: string,
  params: unknown,
): Promise<unknown> {
  return (client.request.bind(client) as unknown as UntypedRequest)(method, params);
}
