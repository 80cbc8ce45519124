/**
 * `mcpServer/oauth/logout` (mcprt extension): remove the stored OAuth credentials of one
 * registration (`environmentId` selects the scope; omitted: the legacy name-only rule) and
 * answer `{removed}` (false: there were none). Running threads restart that registration, which
 * then needs a login. Texts are Codex's `mcp logout` ones: unknown and non-HTTP servers and
 * unknown environments are -32600; a credential store that cannot be written is -32603.
 */

import type { clientRequests, ParamsOut } from '@mcprt/protocol';
import { OAuthLoginError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { invalidRequest } from '../errorMap.js';

type Params = ParamsOut<(typeof clientRequests)['mcpServer/oauth/logout']>;

export async function oauthLogout(params: Params, ctx: HandlerContext) {
  try {
    const removed = await ctx.state.runtime.oauthLogout({
      server: params.name,
      ...(params.environmentId != null ? { environmentId: params.environmentId } : {}),
    });
    return { removed };
  } catch (error) {
    if (error instanceof OAuthLoginError && error.reason === 'target')
      throw invalidRequest(error.message);
    throw error;
  }
}
