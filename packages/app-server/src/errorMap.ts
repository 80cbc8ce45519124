/**
 * Runtime errors → wire errors, per the brief's routing table: selector problems
 * (unknown environment, environment not selected, unknown view) are client faults (-32600);
 * unknown or unavailable servers are -32603 with Codex's texts; a tool the thread may not call —
 * disabled by the server's filters, or outside the thread's view (`tool_not_in_view`, recorded in
 * the history as refused) — is -32603 with the runtime's text, as Codex answers a disabled tool;
 * an MCP server's own JSON-RPC error keeps the server's code. Anything unexpected is -32603 with
 * its message.
 */

import { ErrorCode, ProtocolError } from '@mcprt/protocol';
import { McprtError, RequestFailedError } from '@mcprt/runtime';

export function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof McprtError) {
    switch (error.code) {
      case 'unknown_environment':
      case 'environment_not_selected':
      case 'unknown_view':
        return new ProtocolError(ErrorCode.InvalidRequest, error.message, undefined, {
          cause: error,
        });
      case 'request_failed': {
        // An MCP server's own JSON-RPC error is passed through (code, message, data), as Codex does.
        const served = error instanceof RequestFailedError ? error.serverError : null;
        if (served !== null && isJsonRpcErrorCode(served.code)) {
          return new ProtocolError(served.code, served.message, served.data, { cause: error });
        }
        return new ProtocolError(ErrorCode.InternalError, error.message, undefined, {
          cause: error,
        });
      }
      default:
        return new ProtocolError(ErrorCode.InternalError, error.message, undefined, {
          cause: error,
        });
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProtocolError(ErrorCode.InternalError, message, undefined, { cause: error });
}

/** A code in JSON-RPC's reserved range (-32768 to -32000), which the wire passes on as is. */
function isJsonRpcErrorCode(code: number): boolean {
  return Number.isInteger(code) && code <= -32000 && code >= -32768;
}

export const invalidRequest = (message: string) =>
  new ProtocolError(ErrorCode.InvalidRequest, message);
export const internalError = (message: string) =>
  new ProtocolError(ErrorCode.InternalError, message);
