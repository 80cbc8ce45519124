/**
 * `mcprt call <server> <tool> [--environment <id>] [--args JSON]`: start only the selected
 * registration (routing as everywhere: explicit environment, else the legacy name-only rule),
 * call the tool, print the result as JSON. Exit 0 on success, 1 when the server is unavailable,
 * the call failed or the result has `isError: true`.
 */

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { openRuntime } from '../runtime.js';

export async function callCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      environment: { type: 'string' },
      args: { type: 'string' },
      'timeout-sec': { type: 'string' },
    },
    'call',
  );
  const [server, tool, ...extra] = positionals;
  if (server === undefined || tool === undefined || extra.length > 0) {
    throw new UsageError('usage: mcprt call <server> <tool> [--environment <id>] [--args JSON]');
  }
  let args: Record<string, unknown> | undefined;
  if (values.args !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.args);
    } catch (error) {
      throw new UsageError(`call: --args is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError('call: --args must be a JSON object');
    }
    args = parsed as Record<string, unknown>;
  }
  let timeoutMs: number | undefined;
  if (values['timeout-sec'] !== undefined) {
    timeoutMs = Number(values['timeout-sec']) * 1000;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
      throw new UsageError('call: --timeout-sec must be a positive number');
  }
  const runtime = openRuntime(globals, io);
  const session = runtime.startSession({ cwd: process.cwd(), lazy: true });
  try {
    const result = await session.callTool({
      server,
      tool,
      ...(values.environment !== undefined ? { environmentId: values.environment } : {}),
      ...(args !== undefined ? { arguments: args } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    io.out(JSON.stringify(result, null, 2));
    return result.isError === true ? 1 : 0;
  } finally {
    await runtime.close();
  }
}
