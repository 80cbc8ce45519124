/**
 * `mcprt tools` as text and JSON, and the view parts of `mcprt status --view`: the model-visible
 * tool list of a view (or of the whole inventory) grouped by registration scope as `/mcp` groups
 * servers — per server `server@env: N tools, T tokens`, then each tool's model-visible name, its
 * `<environment>/<server>/<tool>` path and its tokens — servers of the view that are not connected
 * (their tools are not counted), and the cost summary and warning shared with the TUI's `/mcp`
 * (`@mcprt/tui/mcpStatus`). Token counts are the runtime's (o200k_base, docs/tool-shaping.md).
 */

import type { ServerStatus, ToolView, ViewTool } from '@mcprt/runtime';
import { scopeKey, scopeLabel, toolDefinitionTokens } from '@mcprt/runtime';
import {
  connectionLabel,
  groupByScope,
  toolCostSummary,
  toolCostWarning,
} from '@mcprt/tui/mcpStatus';

export interface ToolsViewInput {
  readonly view: ToolView;
  /** Every registration's status (servers of the view that are not connected are listed). */
  readonly statuses: readonly ServerStatus[];
  /** The session's environments, in priority order. */
  readonly environmentOrder: readonly string[];
  readonly environmentKinds: ReadonlyMap<string, string>;
  /** `--environment`: only this environment's tools are listed (the cost stays the view's). */
  readonly environmentId: string | null;
}

interface ServerGroup {
  readonly name: string;
  readonly environmentId: string | null;
  readonly tools: readonly ViewTool[];
  /** Why the server's tools are missing (not connected), else null. */
  readonly missing: ServerStatus | null;
}

/** `mcprt tools --json`. */
export function toolsJson(input: ToolsViewInput) {
  const { view } = input;
  const listed = new Set(view.listed);
  return {
    view: view.name,
    environmentId: input.environmentId,
    tools: shownTools(input).map((t) => ({
      name: t.name,
      path: t.path,
      server: t.scope.name,
      environmentId: t.scope.environmentId,
      tokens: tokensOf(t),
      alwaysLoad: t.alwaysLoad,
      listed: listed.has(t),
    })),
    notConnected: missingServers(input).map((s) => ({
      server: s.name,
      environmentId: s.environmentId,
      status: s.connectionStatus,
      error: s.error,
    })),
    cost: view.cost(),
  };
}

/** `mcprt tools` as lines. */
export function renderToolsView(input: ToolsViewInput): string[] {
  const { view } = input;
  const cost = view.cost();
  const out: string[] = [viewHeader(view), ''];
  const groups = groupByScope(serverGroups(input), input.environmentOrder);
  const rows = groups.flatMap((g) => g.items.flatMap((s) => s.tools));
  const nameWidth = Math.max(0, ...rows.map((t) => t.name.length));
  const pathWidth = Math.max(0, ...rows.map((t) => t.path.length));
  const tokenWidth = Math.max(0, ...rows.map((t) => String(tokensOf(t)).length));
  if (groups.length === 0)
    out.push(
      input.environmentId === null
        ? 'No tools.'
        : `No tools in environment ${input.environmentId}.`,
      '',
    );
  for (const group of groups) {
    const id = group.environmentId;
    const kind = id === null ? undefined : input.environmentKinds.get(id);
    out.push(id === null ? 'thread-wide' : `environment ${id}${kind ? ` (${kind})` : ''}`);
    for (const server of group.items) {
      const label = scopeLabel(server);
      if (server.missing !== null) {
        out.push(
          `  ${label}: ${connectionLabel(server.missing.connectionStatus)} (its tools are not counted)`,
        );
        continue;
      }
      const tokens = server.tools.reduce((n, t) => n + tokensOf(t), 0);
      out.push(`  ${label}: ${countOf(server.tools.length)}, ${tokens} tokens`);
      for (const t of server.tools) {
        const tokensText = String(tokensOf(t)).padStart(tokenWidth);
        const flag = t.alwaysLoad ? '  always_load' : '';
        out.push(
          `    ${t.name.padEnd(nameWidth)}  ${t.path.padEnd(pathWidth)}  ${tokensText} tokens${flag}`,
        );
      }
    }
    out.push('');
  }
  if (input.environmentId !== null) {
    const shown = shownTools(input);
    const tokens = shown.reduce((n, t) => n + tokensOf(t), 0);
    out.push(
      `environment ${input.environmentId}: ${countOf(shown.length)}, ${tokens} tokens of the view's definitions`,
    );
  }
  out.push(toolCostSummary(cost));
  const warning = toolCostWarning(cost);
  if (warning !== null) out.push(warning);
  return out;
}

/**
 * `ServerStatus` as a view shows it (`mcprt status --view`): only the view's tools, under its
 * names; null when the server is outside the view (no tool of it in the view and its resources
 * not either), which `status` leaves out.
 */
export function statusWithinView(s: ServerStatus, view: ToolView): ServerStatus | null {
  const tools = s.tools.flatMap((t) => {
    const shown = view.findRaw(s.scope, t.name);
    return shown === undefined ? [] : [{ ...t, modelName: shown.name }];
  });
  const inView = view.selection.includesServer(s.scope);
  if (!inView && tools.length === 0) return null;
  return {
    ...s,
    tools,
    resources: inView ? s.resources : [],
    resourceTemplates: inView ? s.resourceTemplates : [],
  };
}

/** ``view `review`: tool_search = "off", tool_search_threshold_tokens = 50`` or the inventory. */
function viewHeader(view: ToolView): string {
  const config = view.selection.config;
  if (config === null) return 'all tools (no view)';
  return `view \`${config.name}\`: tool_search = "${config.toolSearch}", tool_search_threshold_tokens = ${config.toolSearchThresholdTokens}`;
}

/** A tool's definition tokens (the runtime counts each definition once). */
function tokensOf(t: ViewTool): number {
  return toolDefinitionTokens(t.definition);
}

function countOf(n: number): string {
  return `${n} ${n === 1 ? 'tool' : 'tools'}`;
}

function shownTools(input: ToolsViewInput): readonly ViewTool[] {
  const env = input.environmentId;
  return env === null
    ? input.view.tools
    : input.view.tools.filter((t) => t.scope.environmentId === env);
}

/** Enabled servers of the view that are not connected, in the shown environment. */
function missingServers(input: ToolsViewInput): ServerStatus[] {
  const env = input.environmentId;
  return input.statuses.filter(
    (s) =>
      s.enabled &&
      s.connectionStatus !== 'connected' &&
      (env === null || s.environmentId === env) &&
      input.view.selection.includesServer(s.scope),
  );
}

/** One group per server with tools shown, plus the view's servers that are not connected. */
function serverGroups(input: ToolsViewInput): ServerGroup[] {
  const groups = new Map<string, ServerGroup & { tools: ViewTool[] }>();
  for (const t of shownTools(input)) {
    const key = scopeKey(t.scope);
    const group = groups.get(key);
    if (group !== undefined) group.tools.push(t);
    else groups.set(key, { ...t.scope, tools: [t], missing: null });
  }
  const missing = missingServers(input).map((s) => ({
    name: s.name,
    environmentId: s.environmentId,
    tools: [],
    missing: s,
  }));
  return [...groups.values(), ...missing];
}
