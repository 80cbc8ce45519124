/**
 * `mcprt status` as text: the `/mcp` view model of `@mcprt/tui/mcpStatus` (the TUI's own) over
 * the runtime's status records — one line per registration, grouped by registration scope
 * (thread-wide first, then each environment in thread order), `• name@env: label (N tools)
 * [MCP 2026-07-28]` (the negotiated protocol revision), with the error and the stderr tail of
 * failed servers underneath. Also the live part of `mcp get --status`.
 */

import type { ServerStatus } from '@mcprt/runtime';
import type { StatusRow } from '@mcprt/tui/mcpStatus';
import { connectionLabel, groupByScope, rowSummary } from '@mcprt/tui/mcpStatus';

export interface StatusViewOptions {
  readonly environmentOrder: readonly string[];
  readonly environmentKinds?: ReadonlyMap<string, string>;
  /** Health notes per environment (e.g. `disconnected: …` for ssh), shown in its header. */
  readonly environmentNotes?: ReadonlyMap<string, string>;
  readonly stderrLines?: number;
}

export function statusRow(s: ServerStatus): StatusRow {
  return {
    name: s.name,
    environmentId: s.environmentId,
    label: connectionLabel(s.connectionStatus),
    toolCount: s.connectionStatus === 'connected' ? s.tools.length : null,
    executionEnvironmentId: s.executionEnvironmentId,
    restartCount: s.restartCount,
  };
}

export function renderStatusView(
  statuses: readonly ServerStatus[],
  options: StatusViewOptions,
): string {
  if (statuses.length === 0) return 'No MCP servers configured.\n';
  const out: string[] = [];
  for (const group of groupByScope(statuses, options.environmentOrder)) {
    const key = group.environmentId;
    const kind = key === null ? undefined : options.environmentKinds?.get(key);
    const note = key === null ? undefined : options.environmentNotes?.get(key);
    const detail = [kind, note].filter(Boolean).join(', ');
    out.push(key === null ? 'thread-wide' : `environment ${key}${detail ? ` (${detail})` : ''}`);
    for (const s of group.items) out.push(...renderLine(s, options.stderrLines ?? 3));
    out.push('');
  }
  return out.join('\n');
}

function renderLine(s: ServerStatus, stderrLines: number): string[] {
  const { name, suffix } = rowSummary(statusRow(s));
  const revision = s.protocolVersion !== null ? ` [MCP ${s.protocolVersion}]` : '';
  const lines = [`  • ${name}${suffix}${revision}`];
  if (s.error && s.connectionStatus !== 'connected') {
    for (const line of s.error.split('\n')) lines.push(`      ${line}`);
    const tail = s.stderrTail.filter((l) => l.trim() !== '').slice(-stderrLines);
    const last = tail[tail.length - 1];
    if (last !== undefined && !s.error.includes(last)) {
      lines.push('      stderr:');
      for (const line of tail) lines.push(`        ${line}`);
    }
  }
  return lines;
}

/** The live part of `mcp get --status --json`. */
export function liveStatusJson(s: ServerStatus) {
  return {
    connectionStatus: s.connectionStatus,
    protocolVersion: s.protocolVersion,
    serverInfo: s.serverInfo,
    tools: s.tools.length,
    error: s.error,
  };
}

/** The live part of `mcp get --status` as text, after the configured settings. */
export function renderLiveStatus(live: ReturnType<typeof liveStatusJson>): string {
  const lines = [
    `  status: ${connectionLabel(live.connectionStatus)}`,
    `  negotiated protocol: ${live.protocolVersion ?? '-'}`,
  ];
  if (live.serverInfo) lines.push(`  server: ${live.serverInfo.name} ${live.serverInfo.version}`);
  if (live.connectionStatus === 'connected') lines.push(`  tools: ${live.tools}`);
  if (live.error) lines.push(`  error: ${live.error}`);
  return `${lines.join('\n')}\n`;
}
