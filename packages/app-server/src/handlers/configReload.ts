/**
 * `config/mcpServer/reload`: re-read config.toml and apply it to every running thread
 * (unchanged servers keep their process). A config that cannot be read fails the request with
 * Codex's prefix and leaves every thread as it was.
 */

import type { HandlerContext } from '../context.js';
import { internalError } from '../errorMap.js';

export async function reloadConfig(_params: unknown, ctx: HandlerContext) {
  try {
    ctx.state.runtime.refreshConfig();
  } catch (error) {
    throw internalError(`failed to refresh MCP servers: ${(error as Error).message}`);
  }
  await ctx.state.probe.invalidate();
  await ctx.state.runtime.reload(ctx.state.runtime.config);
  return {};
}
