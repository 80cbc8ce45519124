/**
 * How `mcprt history` shows recorded tool calls: one line per call, newest first — start time,
 * status, `server@env.tool(arguments)`, duration (none for a `refused` call, which never reached
 * a server), the view the call was made through when there was one, and the error text. `--json`
 * prints the page as listed (every record with its `view`, null when none).
 */

import type { HistoryPage, ToolCallRecord } from '@mcprt/runtime';
import { scopeLabel } from '@mcprt/runtime';

export function historyLine(r: ToolCallRecord): string {
  const who = scopeLabel({ name: r.server, environmentId: r.environmentId });
  const took = r.durationMs === null || r.status === 'refused' ? '' : ` ${r.durationMs} ms`;
  const args = r.arguments === null ? '' : JSON.stringify(r.arguments);
  const view = r.view === null ? '' : `  [view ${r.view}]`;
  const error = r.error ? `  ${r.error}` : '';
  return `${new Date(r.startedAt).toISOString()}  ${r.status.padEnd(10)} ${who}.${r.tool}(${args})${took}${view}${error}`;
}

/** The human listing of a page (`No tool calls recorded.` when empty). */
export function renderHistory(page: HistoryPage): string[] {
  return page.data.length === 0 ? ['No tool calls recorded.'] : page.data.map(historyLine);
}
