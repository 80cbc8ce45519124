/**
 * `mcprt tools [--view NAME] [--environment ID] [--json]`: start every registration as `mcprt
 * status` does, wait until each has settled, then print what a model is shown of the view (or,
 * without `--view`, of the whole inventory) and what its tool definitions cost
 * (format/toolsView.ts, docs/tool-shaping.md). `--environment ID` lists only that environment's
 * tools (not the thread-wide ones); the totals stay the whole view's, since that is what a model
 * is listed. An unknown view or environment is one line and exit 1; exit 1 too when a required
 * server failed (the list is printed all the same).
 */

import { RequiredServersError, UnknownEnvironmentError } from '@mcprt/runtime';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import { renderToolsView, toolsJson } from '../format/toolsView.js';
import type { Io } from '../io.js';
import { openRuntime } from '../runtime.js';

export async function toolsCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { view: { type: 'string' }, environment: { type: 'string' }, json: { type: 'boolean' } },
    'tools',
  );
  if (positionals.length > 0)
    throw new UsageError(`tools: unexpected argument '${positionals[0]}'`);
  if (values.view !== undefined && values.view.trim() === '')
    throw new UsageError('tools: --view needs a view name');
  if (values.environment !== undefined && values.environment.trim() === '')
    throw new UsageError('tools: --environment needs an environment id');
  const runtime = openRuntime(globals, io);
  let exitCode = 0;
  try {
    const environmentId = values.environment ?? null;
    if (environmentId !== null && !runtime.environments.has(environmentId))
      throw new UnknownEnvironmentError(environmentId);
    // An unknown or invalid view throws here, before any server starts.
    const session = runtime.startSession({ cwd: process.cwd(), view: values.view ?? null });
    await session.ready().catch((error: unknown) => {
      if (!(error instanceof RequiredServersError)) throw error;
      io.err(error.message);
      exitCode = 1;
    });
    const input = {
      view: session.toolView(),
      statuses: session.listStatus(),
      environmentOrder: session.environments.map((e) => e.environmentId),
      environmentKinds: new Map(runtime.config.environments.map((e) => [e.id, e.type])),
      environmentId,
    };
    if (values.json) io.out(JSON.stringify(toolsJson(input), null, 2));
    else io.out(`${renderToolsView(input).join('\n')}\n`);
  } finally {
    await runtime.close();
  }
  return exitCode;
}
