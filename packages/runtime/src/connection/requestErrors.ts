/**
 * Failures of requests to a live server, translated from the MCP SDK's errors into one typed
 * runtime error, so nothing above `connection/` inspects the SDK's error shapes: the server's own
 * JSON-RPC error (its code, message and data, passed on to hosts), a streamable-HTTP session the
 * server no longer knows (404: re-initialize and retry), a connection that ended under the
 * request (with why it ended), or anything else (timeouts, cancellation, a server still asking
 * for input after the input-required round limit) with its message — for a streamable-HTTP
 * server that could not be reached or answered an HTTP error, the request and its root cause
 * (failureCause.ts).
 */

import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import type { ServerErrorInfo } from '../errors.js';
import { describeHttpFailure } from './failureCause.js';

export type RequestFailureKind = 'server_error' | 'session_lost' | 'connection_closed' | 'other';

/** A request to a live server failed; `message` is the underlying failure's, `cause` the SDK's. */
export class McpRequestError extends Error {
  constructor(
    readonly kind: RequestFailureKind,
    message: string,
    readonly details: {
      readonly serverError?: ServerErrorInfo | undefined;
      /** `connection_closed`: why the connection ended (exit status, signal, ping, …). */
      readonly closeReason?: string | undefined;
    },
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'McpRequestError';
  }

  get serverError(): ServerErrorInfo | null {
    return this.details.serverError ?? null;
  }
}

/**
 * Translate what a request rejected with. `connection` tells whether it has ended (the
 * transport's word for a connection that died under the request is "Connection closed") and why;
 * its `config` (when given) names an HTTP server's failed request.
 */
export function translateRequestError(
  error: unknown,
  connection: { readonly ended: boolean; closeReason(): string; readonly config?: ServerConfig },
): McpRequestError {
  if (error instanceof McpRequestError) return error;
  const kind = requestFailureKind(error, connection.ended);
  const http =
    connection.config && kind !== 'server_error' && kind !== 'session_lost'
      ? describeHttpFailure(connection.config, error)
      : null;
  const message = http ?? (error instanceof Error ? error.message : String(error));
  if (kind === 'server_error') {
    const code = (error as { code: number }).code;
    const data = (error as { data?: unknown }).data;
    const serverError = { code, message, ...(data !== undefined ? { data } : {}) };
    return new McpRequestError(kind, message, { serverError }, { cause: error });
  }
  if (kind === 'connection_closed') {
    const closeReason = connection.closeReason();
    return new McpRequestError(kind, message, { closeReason }, { cause: error });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.InputRequiredRoundsExceeded) {
    const rounds = (error.data as { rounds?: unknown } | undefined)?.rounds;
    const text = `the server still asked for input after ${String(rounds)} input-required rounds (the limit per request)`;
    return new McpRequestError(kind, text, {}, { cause: error });
  }
  return new McpRequestError(kind, message, {}, { cause: error });
}

/** What kind of failure `error` is (`ended`: the connection has ended). */
export function requestFailureKind(error: unknown, ended: boolean): RequestFailureKind {
  if (error instanceof McpRequestError) return error.kind;
  if (SdkHttpError.isInstance(error) && error.status === 404) return 'session_lost';
  if (typeof (error as { code?: unknown } | null)?.code === 'number') return 'server_error';
  const message = error instanceof Error ? error.message : String(error);
  if (ended || /connection closed/i.test(message)) return 'connection_closed';
  return 'other';
}

/**
 * A request failed: a server that died under it says so (exit status or signal) instead of the
 * transport's bare "Connection closed" — the exit status arrives with the process's exit event,
 * a moment after the pipe closes, so a closed connection's failure waits up to ~100 ms for it.
 */
export async function settledFailure(
  error: unknown,
  connection: Parameters<typeof translateRequestError>[1] & {
    readonly exitInfo: object | undefined;
  },
): Promise<McpRequestError> {
  if (requestFailureKind(error, connection.ended) === 'connection_closed') {
    for (let i = 0; i < 10 && !connection.exitInfo && !connection.ended; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return translateRequestError(error, connection);
}
