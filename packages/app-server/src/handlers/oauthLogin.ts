/**
 * `mcpServer/oauth/login`: start an OAuth login of one registration (`environmentId` selects the
 * scope; with `threadId` the thread's routing rules apply) and answer at once with the
 * authorization URL and a login id; the client opens the URL. When the redirect arrives (the
 * runtime's loopback listener) and the tokens are stored, running threads reconnect that
 * registration and this connection gets `mcpServer/oauthLogin/completed`. Until then the login
 * is kept for this connection by `loginId`, so a pasted redirect URL can complete it
 * (`mcpServer/oauth/login/submitRedirect`). Texts are Codex's.
 */

import type { ParamsOut, ServerNotificationParams } from '@mcprt/protocol';
import type { clientRequests } from '@mcprt/protocol';
import { OAuthLoginError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { invalidRequest } from '../errorMap.js';

type Params = ParamsOut<(typeof clientRequests)['mcpServer/oauth/login']>;

export async function oauthLogin(params: Params, ctx: HandlerContext) {
  const thread = params.threadId != null ? requireThread(ctx, params.threadId) : null;
  let pending;
  try {
    pending = await ctx.state.runtime.oauthLogin({
      server: params.name,
      ...(params.environmentId != null ? { environmentId: params.environmentId } : {}),
      ...(params.scopes != null ? { scopes: params.scopes } : {}),
      ...(params.clientRegistration != null
        ? { clientRegistration: params.clientRegistration }
        : {}),
      ...(params.timeoutSecs != null ? { timeoutMs: params.timeoutSecs * 1000 } : {}),
      ...(thread ? { session: thread.session } : {}),
    });
  } catch (error) {
    if (error instanceof OAuthLoginError && error.reason === 'target')
      throw invalidRequest(error.message);
    throw error;
  }
  const done = (outcome: { success: boolean; error?: string }) => {
    const notification: ServerNotificationParams<'mcpServer/oauthLogin/completed'> = {
      name: params.name,
      environmentId: pending.scope.environmentId,
      threadId: params.threadId ?? null,
      loginId: pending.loginId,
      ...outcome,
    };
    ctx.peer.notify('mcpServer/oauthLogin/completed', notification);
  };
  ctx.state.oauthLogins.add(ctx.peer, pending);
  pending.completed.then(
    () => done({ success: true }),
    (error: unknown) =>
      done({ success: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return { authorizationUrl: pending.authorizationUrl, loginId: pending.loginId };
}
