/**
 * How `mcprt history` shows recorded tool calls: one line per call, newest first — start time,
 * status, `server@env.tool(arguments)`, duration (none for a `refused` call, which never reached
 * a server), the view the call was made through when there was one, the gateway caller who made
 * it when there was one (`[caller alice (client web)]`), the server's task when it ran as one
 * (`[task <id>]`: with status `inProgress` a task not yet followed to its end), and the error
 * text. `--json` prints the page as listed (every record with its `view`, `caller` and `task`).
 *
 * A caller's subject and client id come from access tokens, i.e. from whoever the issuer let
 * choose them: they are shown through the terminal sanitiser with line breaks as `?` too, so
 * they can neither drive the terminal nor start a line that looks like another record.
 */

import type { HistoryPage, ToolCallRecord } from '@mcprt/runtime';
import { scopeLabel } from '@mcprt/runtime';
import { sanitizeTerminalText } from '@mcprt/sdk';

/** `alice (client web)`, `alice`, `client web`: one line, terminal-safe. */
export function callerText(caller: NonNullable<ToolCallRecord['caller']>): string {
  const client = caller.clientId === null ? null : `client ${caller.clientId}`;
  const text =
    caller.subject === null
      ? (client ?? '')
      : client === null
        ? caller.subject
        : `${caller.subject} (${client})`;
  return sanitizeTerminalText(text);
}

export function historyLine(r: ToolCallRecord): string {
  const who = scopeLabel({ name: r.server, environmentId: r.environmentId });
  const took = r.durationMs === null || r.status === 'refused' ? '' : ` ${r.durationMs} ms`;
  const args = r.arguments === null ? '' : JSON.stringify(r.arguments);
  const view = r.view === null ? '' : `  [view ${r.view}]`;
  const caller = r.caller === null ? '' : `  [caller ${callerText(r.caller)}]`;
  const task = r.task === null ? '' : `  [task ${sanitizeTerminalText(r.task.id)}]`;
  const error = r.error ? `  ${r.error}` : '';
  return `${new Date(r.startedAt).toISOString()}  ${r.status.padEnd(10)} ${who}.${r.tool}(${args})${took}${view}${caller}${task}${error}`;
}

/** The human listing of a page (`No tool calls recorded.` when empty). */
export function renderHistory(page: HistoryPage): string[] {
  return page.data.length === 0 ? ['No tool calls recorded.'] : page.data.map(historyLine);
}
