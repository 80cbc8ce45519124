/**
 * Answering server→client requests: run the registered handler and turn its outcome into a
 * response body. Without a handler, elicitation is declined (as Codex's own clients do) and
 * anything else gets -32601, so the server is never left waiting.
 */

import { ErrorCode, type JsonRpcErrorObject, ProtocolError } from '@mcprt/protocol';

const ELICITATION = 'mcpServer/elicitation/request';
/** What an elicitation gets when nobody can ask the user. */
const DEFAULT_ELICITATION_RESULT = { action: 'decline', content: null } as const;

/** A handler as stored, with its method's types erased. */
export type StoredServerRequestHandler = (params: unknown, context: never) => unknown;

export type ResponseBody = { result: unknown } | { error: JsonRpcErrorObject };

export async function answerServerRequest(
  handler: StoredServerRequestHandler | undefined,
  params: unknown,
  context: { readonly method: string },
): Promise<ResponseBody> {
  if (handler === undefined) {
    if (context.method === ELICITATION) return { result: DEFAULT_ELICITATION_RESULT };
    return {
      error: { code: ErrorCode.MethodNotFound, message: `no handler for ${context.method}` },
    };
  }
  try {
    const result = await handler(params, context as never);
    // `undefined` would vanish from the JSON and leave an invalid response.
    return { result: result === undefined ? null : result };
  } catch (error) {
    if (error instanceof ProtocolError) return { error: error.toJSON() };
    const message = error instanceof Error ? error.message : String(error);
    return { error: { code: ErrorCode.InternalError, message } };
  }
}
