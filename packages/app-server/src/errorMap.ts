/**
 * Runtime errors → wire errors, per the brief's routing table: selector problems
 * (unknown environment, environment not selected) are client faults (-32600); unknown or
 * unavailable servers are -32603 with Codex's texts; an MCP server's own JSON-RPC error keeps the
 * server's code. Anything unexpected is -32603 with its message.
 */

import { ErrorCode, ProtocolError } from '@mcprt/protocol';
import { McprtError } from '@mcprt/runtime';

export function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof McprtError) {
    switch (error.code) {
      case 'unknown_environment':
      case 'environment_not_selected':
        return new ProtocolError(ErrorCode.InvalidRequest, error.message, undefined, {
          cause: error,
        });
      case 'request_failed': {
        // An MCP server's own JSON-RPC error is passed through (code, message, data), as Codex does.
        const serverCode = mcpErrorCode(error.cause);
        if (serverCode !== null) {
          const cause = error.cause as { message: string; data?: unknown };
          return new ProtocolError(serverCode, cause.message, cause.data, { cause: error });
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

/** The JSON-RPC code of an error the MCP server itself returned, if that is what this is. */
function mcpErrorCode(cause: unknown): number | null {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'number' && Number.isInteger(code) && code <= -32000 && code >= -32768
    ? code
    : null;
}

export const invalidRequest = (message: string) =>
  new ProtocolError(ErrorCode.InvalidRequest, message);
export const internalError = (message: string) =>
  new ProtocolError(ErrorCode.InternalError, message);
