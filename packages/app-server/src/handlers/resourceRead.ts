/**
 * `mcpServer/resource/read`: by `(server, environmentId?)` in the thread, or in the shared probe
 * session when no `threadId` is given. Returns the MCP contents plus Codex's `originCallId`.
 */

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';

interface ResourceReadInput {
  readonly threadId?: string | null | undefined;
  readonly server: string;
  readonly uri: string;
  readonly environmentId?: string | null | undefined;
  readonly originCallId?: string | null | undefined;
}

export async function readResource(params: ResourceReadInput, ctx: HandlerContext) {
  const session =
    params.threadId != null
      ? requireThread(ctx, params.threadId).session
      : await ctx.state.probe.get();
  const result = await session.readResource({
    server: params.server,
    uri: params.uri,
    ...(params.environmentId != null ? { environmentId: params.environmentId } : {}),
  });
  return { ...result, contents: result.contents, originCallId: params.originCallId ?? null };
}
