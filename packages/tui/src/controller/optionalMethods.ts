/**
 * App-server methods the TUI uses that a server may not implement. `mcpServer/oauth/login`
 * (+ the `mcpServer/oauthLogin/completed` notification) and `mcpServer/oauth/logout` are not in
 * this build's protocol table yet: they are sent untyped through `untypedRequest`, and when they
 * land in `@mcprt/protocol`'s registry the call site becomes a typed `client.request(...)` — a
 * one-line change in controller.ts. `history/list` is in the table and called typed. Whatever the
 * method, a server that answers -32601 (method not found, e.g. an older remote server) becomes
 * `MethodUnavailableError`, whose message the user sees inline.
 */

import { ErrorCode, ProtocolError } from '@mcprt/sdk';
import type { McprtClient, Unsubscribe } from '@mcprt/sdk';

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

export const LOGIN_COMPLETED = 'mcpServer/oauthLogin/completed';

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
type UntypedOn = (method: string, handler: (params: unknown) => void) => Unsubscribe;

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

/** Subscribe to a notification the protocol table does not list yet. */
export function onOptional(
  client: McprtClient,
  method: string,
  handler: (params: unknown) => void,
): Unsubscribe {
  return (client.on.bind(client) as unknown as UntypedOn)(method, handler);
}
