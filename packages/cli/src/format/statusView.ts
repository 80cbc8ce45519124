/**
 * The `/mcp`-style status view: one line per registration, grouped by registration scope
 * (thread-wide first, then each environment in thread order), `• name@env: label (N tools)`,
 * with the error and the stderr tail of failed servers underneath.
 */

import type { ServerStatus } from '@mcprt/runtime';

const LABELS: Record<ServerStatus['connectionStatus'], string> = {
  notStarted: 'not started',
  starting: 'starting',
  connected: 'connected',
  authenticationRequired: 'authentication required',
  failed: 'failed',
  cancelled: 'cancelled',
  disabled: 'disabled',
};

export function statusLabel(status: ServerStatus): string {
  return LABELS[status.connectionStatus];
}

export function displayName(status: Pick<ServerStatus, 'name' | 'environmentId'>): string {
  return status.environmentId === null ? status.name : `${status.name}@${status.environmentId}`;
}

export interface StatusViewOptions {
  readonly environmentOrder: readonly string[];
  readonly environmentKinds?: ReadonlyMap<string, string>;
  /** Health notes per environment (e.g. `disconnected: …` for ssh), shown in its header. */
  readonly environmentNotes?: ReadonlyMap<string, string>;
  readonly stderrLines?: number;
}

export function renderStatusView(
  statuses: readonly ServerStatus[],
  options: StatusViewOptions,
): string {
  if (statuses.length === 0) return 'No MCP servers configured.\n';
  const groups = new Map<string | null, ServerStatus[]>();
  const keys: (string | null)[] = [null, ...options.environmentOrder];
  for (const s of statuses) {
    if (!keys.includes(s.environmentId)) keys.push(s.environmentId);
    const list = groups.get(s.environmentId) ?? [];
    list.push(s);
    groups.set(s.environmentId, list);
  }
  const out: string[] = [];
  for (const key of keys) {
    const list = groups.get(key);
    if (!list) continue;
    const kind = key === null ? undefined : options.environmentKinds?.get(key);
    const note = key === null ? undefined : options.environmentNotes?.get(key);
    const detail = [kind, note].filter(Boolean).join(', ');
    out.push(key === null ? 'thread-wide' : `environment ${key}${detail ? ` (${detail})` : ''}`);
    for (const s of [...list].sort((a, b) => a.name.localeCompare(b.name)))
      out.push(...renderLine(s, options.stderrLines ?? 3));
    out.push('');
  }
  return out.join('\n');
}

function renderLine(s: ServerStatus, stderrLines: number): string[] {
  const runsElsewhere =
    s.environmentId === null && s.executionEnvironmentId !== 'local'
      ? ` [runs in ${s.executionEnvironmentId}]`
      : '';
  const tools =
    s.connectionStatus === 'connected'
      ? ` (${s.tools.length} ${s.tools.length === 1 ? 'tool' : 'tools'})`
      : '';
  const restarts = s.restartCount > 0 ? ` [restarted ${s.restartCount}×]` : '';
  const lines = [`  • ${displayName(s)}: ${statusLabel(s)}${tools}${runsElsewhere}${restarts}`];
  if (s.error && s.connectionStatus !== 'connected') {
    for (const line of s.error.split('\n')) lines.push(`      ${line}`);
    const tail = s.stderrTail.filter((l) => l.trim() !== '').slice(-stderrLines);
    if (tail.length > 0 && !s.error.includes(tail[tail.length - 1]!)) {
      lines.push('      stderr:');
      for (const line of tail) lines.push(`        ${line}`);
    }
  }
  return lines;
}
