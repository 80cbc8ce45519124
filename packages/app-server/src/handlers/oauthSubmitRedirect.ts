/**
 * `mcpServer/oauth/login/submitRedirect` (mcprt extension): complete a pending login of this
 * connection with the URL the browser was redirected to, pasted by a person whose browser cannot
 * reach the runtime's loopback listener (another machine). `accepted: false` when the text is not
 * that login's redirect (no `code`, another login's `state`): the login keeps waiting, the
 * loopback listener too. An id that is not a pending login of this connection is -32600.
 * Completion is reported as for any login, by `mcpServer/oauthLogin/completed`.
 */

import type { clientRequests, ParamsOut } from '@mcprt/protocol';

import type { HandlerContext } from '../context.js';
import { invalidRequest } from '../errorMap.js';

type Params = ParamsOut<(typeof clientRequests)['mcpServer/oauth/login/submitRedirect']>;

export async function oauthSubmitRedirect(params: Params, ctx: HandlerContext) {
  const login = ctx.state.oauthLogins.get(ctx.peer, params.loginId);
  if (!login) {
    throw invalidRequest(
      `unknown OAuth login id \`${params.loginId}\`: no login with that id is pending on this connection`,
    );
  }
  return { accepted: login.submitRedirectUrl(params.redirectUrl) };
}
