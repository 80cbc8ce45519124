/**
 * The authenticated caller carried through the SDK's `createMcpHandler` to the server factory:
 * the listener passes it as `authInfo.extra.caller` (`modern.fetch(request, { authInfo })`), the
 * factory reads it back. `authInfo.token` is a constant placeholder — the presented token never
 * travels further than the authenticator. A request without a caller is refused (never served
 * as the local client).
 */

import type { AuthInfo } from '@modelcontextprotocol/server';

import type { Caller } from '../caller.js';

const PLACEHOLDER_TOKEN = 'mcprt-authenticated';

export function authInfoFor(caller: Caller): AuthInfo {
  return {
    token: PLACEHOLDER_TOKEN,
    clientId: caller.clientId ?? '',
    scopes: [...caller.scopes],
    extra: { caller },
  };
}

export function callerOf(authInfo: AuthInfo | undefined): Caller {
  const caller = authInfo?.extra?.['caller'];
  if (caller === undefined || caller === null) {
    throw new Error('a request reached the MCP handler without an authenticated caller');
  }
  return caller as Caller;
}
