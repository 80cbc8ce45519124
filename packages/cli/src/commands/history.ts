/**
 * `mcprt history [--json] [--thread ID] [--server NAME] [--environment ID | --thread-wide]
 * [--view NAME] [--caller ID] [--status S] [--since ISO] [--limit N]`: recorded tool calls from
 * `$MCPRT_HOME/history.sqlite`, newest first (shown by format/historyView.ts). Arguments are
 * shown as stored (redacted keys already replaced). `--view` keeps the calls made through that
 * view; `--caller` the calls a gateway caller made (its token's subject or client id, exactly);
 * `--status refused` the calls a view or a caller policy refused.
 */

import type { SqliteHistoryStore } from '@mcprt/runtime';
import { Runtime, type HistoryQuery, type ToolCallStatus } from '@mcprt/runtime';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import { renderHistory } from '../format/historyView.js';
import type { Io } from '../io.js';
import { configFile } from '../runtime.js';

const STATUSES: readonly ToolCallStatus[] = [
  'inProgress',
  'completed',
  'failed',
  'cancelled',
  'refused',
];

export async function historyCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      json: { type: 'boolean' },
      thread: { type: 'string' },
      server: { type: 'string' },
      environment: { type: 'string' },
      'thread-wide': { type: 'boolean' },
      view: { type: 'string' },
      caller: { type: 'string' },
      status: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string' },
    },
    'history',
  );
  if (positionals.length > 0)
    throw new UsageError(`history: unexpected argument '${positionals[0]}'`);
  if (values.environment !== undefined && values['thread-wide']) {
    throw new UsageError('history: --environment and --thread-wide cannot be used together');
  }
  if (values.view !== undefined && values.view.trim() === '') {
    throw new UsageError('history: --view needs a view name');
  }
  if (values.caller === '') {
    throw new UsageError('history: --caller needs a subject or client id');
  }
  if (values.status !== undefined && !STATUSES.includes(values.status as ToolCallStatus)) {
    throw new UsageError(`history: --status must be one of ${STATUSES.join(', ')}`);
  }
  let since: number | undefined;
  if (values.since !== undefined) {
    since = Date.parse(values.since);
    if (Number.isNaN(since))
      throw new UsageError(`history: --since is not a date: '${values.since}'`);
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw new UsageError('history: --limit must be 1..500');

  configFile(globals); // refuses an unsafe home first
  const runtime = Runtime.load({
    ...(globals.home !== undefined ? { home: globals.home } : {}),
    ...(globals.codexHome !== undefined ? { codexHome: globals.codexHome } : {}),
  });
  const store: SqliteHistoryStore | null = runtime.history;
  try {
    if (!store) {
      io.err('mcprt: tool-call history is disabled ([history] enabled = false)');
      return 1;
    }
    const query: HistoryQuery = {
      limit,
      ...(values.thread !== undefined ? { threadId: values.thread } : {}),
      ...(values.server !== undefined ? { server: values.server } : {}),
      ...(values['thread-wide']
        ? { environmentId: null }
        : values.environment !== undefined
          ? { environmentId: values.environment }
          : {}),
      ...(values.view !== undefined ? { view: values.view } : {}),
      ...(values.caller !== undefined ? { caller: values.caller } : {}),
      ...(values.status !== undefined ? { status: values.status as ToolCallStatus } : {}),
      ...(since !== undefined ? { since } : {}),
    };
    const page = store.list(query);
    if (values.json) io.out(JSON.stringify(page, null, 2));
    else for (const line of renderHistory(page)) io.out(line);
    return 0;
  } finally {
    await runtime.close();
  }
}
