/**
 * `environment/list` (mcprt extension): every execution environment — `local` and each
 * configured one — with its kind, health and cwd (the thread's cwd for it when `threadId` is
 * given, else its configured default). Connection-holding environments (ssh) report their live
 * health (`ready|connecting|disconnected` + error); with `threadId`, `remoteConfigError` says why
 * the environment's own config (ssh: the remote `~/.mcprt/config.toml`) could not be read.
 */

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';

export async function listEnvironments(
  params: { threadId?: string | null | undefined } | null | undefined,
  ctx: HandlerContext,
) {
  const runtime = ctx.state.runtime;
  const thread = params?.threadId != null ? requireThread(ctx, params.threadId) : null;
  const threadCwd = (id: string) =>
    thread?.environments.find((e) => e.environmentId === id)?.cwd ?? null;
  const invalid = new Map(runtime.config.invalidEnvironments.map((e) => [e.id, e.error]));
  const data = [
    {
      environmentId: 'local',
      kind: 'local' as const,
      status: 'ready' as const,
      error: null,
      cwd: thread ? thread.cwd : null,
      remoteConfigError: null,
    },
    ...runtime.environments.configuredIds.map((id) => {
      const env = runtime.environments.get(id)!;
      const reason = invalid.get(id) ?? env.unavailableReason ?? null;
      const health = env.health?.() ?? { state: 'ready' as const, error: null };
      return {
        environmentId: id,
        kind: env.kind,
        status: reason === null ? health.state : ('unavailable' as const),
        error: reason ?? health.error,
        cwd: threadCwd(id) ?? env.defaultCwd,
        remoteConfigError: thread?.session.registrationsError(id) ?? null,
      };
    }),
  ];
  return { data };
}
