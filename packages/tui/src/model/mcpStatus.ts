/**
 * The `/mcp` view model, shared by the TUI's `/mcp` and the CLI's `mcprt status` and `mcprt
 * tools`: the status label vocabulary (Codex's), one summary per registration — `name@env: label
 * (N tools[, T tokens]) [runs in x] [restarted N×]` — the grouping by registration scope
 * (thread-wide first, then the thread's environments in order, names sorted within a group), and
 * what a view's tool definitions cost as one summary line plus its warning (docs/tool-shaping.md).
 * Each front end builds rows from its own source (runtime status records, or wire items overlaid
 * with startup notifications) and renders them its own way. Pure functions; no terminal code.
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
  /** What those tools' definitions cost in tokens, when known (shown with a tool count > 0). */
  readonly tokens?: number | null | undefined;
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
  const tokens =
    row.tokens != null && row.toolCount !== null && row.toolCount > 0
      ? `, ${row.tokens} tokens`
      : '';
  const tools =
    row.toolCount === null
      ? ''
      : ` (${row.toolCount} ${row.toolCount === 1 ? 'tool' : 'tools'}${tokens})`;
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

/**
 * What a view's tool definitions cost a model: the wire's `thread/toolView/get` result and the
 * runtime's `ViewCost` both fit.
 */
export interface ToolCost {
  /** null: the whole inventory (no view). */
  readonly view: string | null;
  readonly tools: number;
  /** Every definition, as listed with tool search off. */
  readonly allTokens: number;
  /** The `always_load` definitions plus the meta-tools, as listed with tool search on. */
  readonly searchTokens: number;
  /** `tool_search_threshold_tokens`; null (or Infinity) without a view. */
  readonly thresholdTokens: number | null;
  readonly searching: boolean;
  /** `tool_search = "off"` and the definitions are over the threshold. */
  readonly overThreshold: boolean;
}

/** Past this many tokens of definitions, a front end without a view suggests one. */
export const INVENTORY_NOTE_TOKENS = 10_000;

/**
 * `view `review`: 4 tools, 175 tokens with tool search off, 461 with it on; search is off`
 * (`all tools (no view): …` without a view).
 */
export function toolCostSummary(cost: ToolCost): string {
  const subject = cost.view === null ? 'all tools (no view)' : `view \`${cost.view}\``;
  const tools = `${cost.tools} ${cost.tools === 1 ? 'tool' : 'tools'}`;
  return (
    `${subject}: ${tools}, ${cost.allTokens} tokens with tool search off, ` +
    `${cost.searchTokens} with it on; search is ${cost.searching ? 'on' : 'off'}`
  );
}

/**
 * The warning of a view over its threshold with search off, or (no view) the note that the
 * whole inventory is past {@link INVENTORY_NOTE_TOKENS}; null when there is nothing to say.
 */
export function toolCostWarning(cost: ToolCost): string | null {
  if (cost.view !== null && cost.overThreshold) {
    return (
      `warning: view \`${cost.view}\` lists ${cost.allTokens} tokens of tool definitions, over ` +
      `its tool_search_threshold_tokens of ${String(cost.thresholdTokens)}; set tool_search = "auto"`
    );
  }
  if (cost.view === null && cost.allTokens > INVENTORY_NOTE_TOKENS) {
    return (
      `note: the whole inventory lists ${cost.allTokens} tokens of tool definitions, over ` +
      `${INVENTORY_NOTE_TOKENS}; define a [views.NAME] with tool_search = "auto" and use it ` +
      `(--view NAME)`
    );
  }
  return null;
}
