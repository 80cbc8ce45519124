/**
 * `mcprt` (no command) and `mcprt status [--json]`: start every registration of a session, wait
 * until each has settled (bounded by its startup timeout), print the status view, shut down.
 * Exits 0 even when servers failed (their failures are the output); 1 when a required server
 * failed; the TUI takes over the bare command on a TTY in a later version.
 */

import { RequiredServersError } from '@mcprt/runtime';

import type { GlobalOptions } from '../args.js';
import { parse } from '../args.js';
import { renderStatusView } from '../format/statusView.js';
import type { Io } from '../io.js';
import { configFile, openRuntime } from '../runtime.js';

export async function statusCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, 'status');
  if (positionals.length > 0) throw new Error(`status: unexpected argument '${positionals[0]}'`);
  const runtime = openRuntime(globals, io);
  const session = runtime.startSession({ cwd: process.cwd() });
  let exitCode = 0;
  try {
    await session.ready().catch((error: unknown) => {
      if (!(error instanceof RequiredServersError)) throw error;
      io.err(error.message);
      exitCode = 1;
    });
    const statuses = session.listStatus();
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
    }
  } finally {
    await runtime.close();
  }
  return exitCode;
}
