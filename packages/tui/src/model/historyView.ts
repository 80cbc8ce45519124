/**
 * `/history` as lines: one row per recorded tool call from `history/list`,
 * `time  server@env.tool  status  duration` (and the error of a failed call), newest first as the
 * server returns them, with the filters in the title.
 */

import { scopeLabel } from '@mcprt/base';
import type { HistoryEntry } from '@mcprt/protocol';

import { truncate, wrap } from '../text/fit.js';
import { formatDuration } from './callCell.js';
import type { HistoryFilters } from './commands.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

export interface HistoryCell {
  readonly filters: HistoryFilters;
  readonly state: 'loading' | 'loaded' | 'failed' | 'unavailable';
  readonly rows: readonly HistoryEntry[];
  readonly message: string | null;
  readonly more: boolean;
}

function time(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function historyRow(row: HistoryEntry, width: number): Line {
  const name = `${scopeLabel({ name: row.server, environmentId: row.environmentId })}.${row.tool}`;
  const duration = row.durationMs === null ? '' : `  ${formatDuration(row.durationMs)}`;
  const error = row.error === null ? '' : `  ${row.error}`;
  const tone = row.status === 'failed' ? 'error' : row.status === 'completed' ? 'plain' : 'warn';
  return line(
    truncate(`  ${time(row.startedAt)}  ${name}  ${row.status}${duration}${error}`, width),
    tone,
  );
}

function title(filters: HistoryFilters): string {
  const parts: string[] = [];
  if (filters.server !== null) parts.push(`server ${filters.server}`);
  if (filters.environmentId !== null) parts.push(`environment ${filters.environmentId}`);
  if (filters.threadWideOnly) parts.push('thread-wide');
  if (filters.status !== null) parts.push(`status ${filters.status}`);
  parts.push(filters.allThreads ? 'all sessions' : 'this session');
  return `/history (${parts.join(', ')})`;
}

export function historyCellLines(cell: HistoryCell, width: number): Line[] {
  const out: Line[] = [line(truncate(title(cell.filters), width), 'bold')];
  switch (cell.state) {
    case 'loading':
      out.push(line(truncate('  loading…', width), 'dim'));
      break;
    case 'unavailable':
    case 'failed':
      out.push(
        ...wrap(
          `${cell.state === 'failed' ? 'Error: ' : ''}${cell.message ?? ''}`,
          width,
          '  ',
          '  ',
        ).map((t) => line(t, cell.state === 'failed' ? 'error' : 'warn')),
      );
      break;
    case 'loaded':
      if (cell.rows.length === 0)
        out.push(line(truncate('  No tool calls recorded.', width), 'dim'));
      for (const row of cell.rows) out.push(historyRow(row, width));
      if (cell.more)
        out.push(
          line(
            truncate(`  (more: use --limit to see more than ${cell.rows.length})`, width),
            'dim',
          ),
        );
  }
  return out;
}
