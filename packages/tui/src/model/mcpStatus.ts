/**
 * The `/mcp` view model, shared by the TUI's `/mcp` and the CLI's `mcprt status`: the status
 * label vocabulary (Codex's), one summary per registration — `name@env: label (N tools) [runs in
 * x] [restarted N×]` — and the grouping by registration scope (thread-wide first, then the
 * thread's environments in order, names sorted within a group). Each front end builds rows from
 * its own source (runtime status records, or wire items overlaid with startup notifications) and
 * renders them its own way. Pure functions; no terminal code.
 */

import { scopeLabel } from '@mcprt/base';
import type { McpServerConnectionStatus } from '@mcprt/protocol';

export type StatusLabel =
  | 'connected'
  | 'starting'
  | 'authentication required'
  | 'failed'
  | 'not started'
  | 'disabled'
  | 'cancelled'
  | 'unknown';

/** A registration's connection state, as both the wire and the runtime name it. */
export type ConnectionState = McpServerConnectionStatus;

const CONNECTION_LABELS: Record<ConnectionState, StatusLabel> = {
  notStarted: 'not started',
  starting: 'starting',
  connected: 'connected',
  authenticationRequired: 'authentication required',
  failed: 'failed',
  cancelled: 'cancelled',
  disabled: 'disabled',
};

export function connectionLabel(state: ConnectionState): StatusLabel {
  return CONNECTION_LABELS[state];
}

/** What one registration's summary line shows. */
export interface StatusRow {
  readonly name: string;
  /** Registration scope: null for a thread-wide registration. */
  readonly environmentId: string | null;
  readonly label: StatusLabel;
  /** Tools of a connected registration; null when not connected. */
  readonly toolCount: number | null;
  /** Where the server executes, when known. */
  readonly executionEnvironmentId?: string | undefined;
  /** Automatic restarts so far, when known. */
  readonly restartCount?: number | undefined;
}

/**
 * The summary split where a narrow front end may shorten it: the scope label (`name@env`) and
 * the rest (`: label (N tools) [runs in x] [restarted N×]`).
 */
export function rowSummary(row: StatusRow): { readonly name: string; readonly suffix: string } {
  const tools =
    row.toolCount === null ? '' : ` (${row.toolCount} ${row.toolCount === 1 ? 'tool' : 'tools'})`;
  const runsIn = row.executionEnvironmentId;
  const elsewhere =
    row.environmentId === null && runsIn !== undefined && runsIn !== 'local'
      ? ` [runs in ${runsIn}]`
      : '';
  const restarts =
    row.restartCount !== undefined && row.restartCount > 0
      ? ` [restarted ${row.restartCount}×]`
      : '';
  return { name: scopeLabel(row), suffix: `: ${row.label}${tools}${elsewhere}${restarts}` };
}

/**
 * Items grouped by registration scope: thread-wide first, then `environmentOrder` (the thread's
 * environments; `local` never contributes registrations), then any other environment in the
 * order first seen. Names are sorted by code unit within a group; empty groups are left out.
 */
export function groupByScope<
  T extends { readonly name: string; readonly environmentId: string | null },
>(
  items: readonly T[],
  environmentOrder: readonly string[],
): { environmentId: string | null; items: T[] }[] {
  const keys: (string | null)[] = [null, ...environmentOrder.filter((e) => e !== 'local')];
  for (const item of items) if (!keys.includes(item.environmentId)) keys.push(item.environmentId);
  return keys
    .map((environmentId) => ({
      environmentId,
      items: items
        .filter((item) => item.environmentId === environmentId)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }))
    .filter((group) => group.items.length > 0);
}
