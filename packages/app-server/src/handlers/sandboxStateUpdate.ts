/**
 * `thread/sandboxState/update` (mcprt extension): replace a thread's sandbox state. Tool calls
 * issued after the answer carry the new state (calls already issued keep the authority they were
 * issued with). The value is kept exactly as parsed from the request — never rebuilt — and
 * forwarded as is to servers that advertise `codex/sandbox-state`; `null` clears it.
 */

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';

interface SandboxStateUpdateInput {
  readonly threadId: string;
  readonly sandboxState?: unknown;
}

export function updateSandboxState(
  params: SandboxStateUpdateInput,
  ctx: HandlerContext,
): Promise<Record<string, never>> {
  const thread = requireThread(ctx, params.threadId);
  thread.session.setSandboxState(params.sandboxState);
  return Promise.resolve({});
}
