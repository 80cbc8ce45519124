/**
 * `mcprt` (no command) and `mcprt status [--json] [--view NAME]`: start every registration of a
 * session, wait until each has settled (bounded by its startup timeout), print the status view,
 * shut down. Exits 0 even when servers failed (their failures are the output); 1 when a required
 * server failed; the TUI takes over the bare command on a TTY in a later version.
 *
 * `--view NAME`: the session runs under the view; each server's tool count is its tools in the
 * view, servers outside the view (no tool in it, resources not either) are left out — a line
 * says how many — and a last line says what the view's definitions cost, with its warning when it
 * is over its threshold with search off (format/toolsView.ts). `--json` prints the same status
 * records, narrowed the same way (the cost is `mcprt tools --json`'s). An unknown view: exit 1.
 */

import type { ServerStatus } from '@mcprt/runtime';
import { RequiredServersError } from '@mcprt/runtime';
import { toolCostSummary, toolCostWarning } from '@mcprt/tui/mcpStatus';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import { renderStatusView } from '../format/statusView.js';
import { statusWithinView } from '../format/toolsView.js';
import type { Io } from '../io.js';
import { configFile, openRuntime } from '../runtime.js';

export async function statusCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { json: { type: 'boolean' }, view: { type: 'string' } },
    'status',
  );
  if (positionals.length > 0) throw new Error(`status: unexpected argument '${positionals[0]}'`);
  if (values.view !== undefined && values.view.trim() === '')
    throw new UsageError('status: --view needs a view name');
  const runtime = openRuntime(globals, io);
  let exitCode = 0;
  try {
    // An unknown or invalid view throws here, before any server starts.
    const session = runtime.startSession({ cwd: process.cwd(), view: values.view ?? null });
    await session.ready().catch((error: unknown) => {
      if (!(error instanceof RequiredServersError)) throw error;
      io.err(error.message);
      exitCode = 1;
    });
    const all = session.listStatus();
    const view = session.view === null ? null : session.toolView();
    const statuses =
      view === null
        ? all
        : all.flatMap((s): ServerStatus[] => {
            const shown = statusWithinView(s, view);
            return shown === null ? [] : [shown];
          });
    if (values.json) {
      io.out(JSON.stringify(statuses, null, 2));
    } else {
      const kinds = new Map(runtime.config.environments.map((e) => [e.id, e.type]));
      const notes = new Map<string, string>();
      for (const id of runtime.environments.configuredIds) {
        const env = runtime.environments.get(id);
        const health = env?.health?.();
        if (env?.unavailableReason) notes.set(id, `unavailable: ${env.unavailableReason}`);
        else if (health && health.state !== 'ready') {
          notes.set(id, `${health.state}${health.error ? `: ${health.error}` : ''}`);
        }
      }
      io.out(`MCP servers (${configFile(globals).file})\n\n`);
      io.out(
        renderStatusView(statuses, {
          environmentOrder: session.environments.map((e) => e.environmentId),
          environmentKinds: kinds,
          environmentNotes: notes,
        }),
      );
      if (view !== null) {
        const lines: string[] = [''];
        const outside = all.length - statuses.length;
        if (outside > 0) {
          const servers = outside === 1 ? 'server' : 'servers';
          lines.push(`${outside} ${servers} outside view \`${view.name}\` not shown`);
        }
        const cost = view.cost();
        lines.push(toolCostSummary(cost));
        const warning = toolCostWarning(cost);
        if (warning !== null) lines.push(warning);
        io.out(lines.join('\n'));
      }
    }
  } finally {
    await runtime.close();
  }
  return exitCode;
}
