/**
 * A `/call` transcript cell as lines: `• Calling|Called server@env.tool({args})`, then the status
 * and duration, then a preview of the result (three rows, as Codex's compact preview) or the
 * error. Tool errors (`isError: true`) count as failed and show their text as `Error: …`.
 */

import type { McpServerToolCallResult } from '@mcprt/protocol';

import { clampLines, displayWidth, truncate, wrap } from '../text/fit.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

export interface CallCell {
  readonly server: string;
  readonly tool: string;
  /** `server@env` (or bare for thread-wide) of the registration the call reaches. */
  readonly scope: string;
  /** Compact JSON of the arguments. */
  readonly argsText: string;
  readonly state: 'running' | 'completed' | 'failed';
  readonly durationMs: number | null;
  readonly result: McpServerToolCallResult | null;
  /** A request-level failure (unknown server or environment, timeout, lost connection). */
  readonly error: string | null;
}

export const PREVIEW_ROWS = 3;

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Readable text of one MCP content block. */
function blockText(block: Record<string, unknown>): string {
  switch (block['type']) {
    case 'text':
      return String(block['text'] ?? '');
    case 'image':
    case 'audio':
      return `<${String(block['type'])} ${String(block['mimeType'] ?? '')}>`.replace(' >', '>');
    case 'resource_link':
      return `<resource ${String(block['uri'] ?? '')}>`;
    case 'resource': {
      const res = block['resource'] as { uri?: unknown; text?: unknown } | undefined;
      return typeof res?.text === 'string' ? res.text : `<resource ${String(res?.uri ?? '')}>`;
    }
    default:
      return `<${String(block['type'] ?? 'content')}>`;
  }
}

/** The result's text: its content blocks, else its structured content as JSON. */
export function resultText(result: McpServerToolCallResult): string {
  const parts = result.content.map((b) => blockText(b as Record<string, unknown>));
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

export function callCellLines(cell: CallCell, width: number): Line[] {
  const verb = cell.state === 'running' ? 'Calling' : 'Called';
  const head = `• ${verb} ${cell.scope}.${cell.tool}(`;
  const out: Line[] = [];
  // The call's name is kept whole when it fits; the arguments are what gets shortened.
  const full = `${head}${cell.argsText})`;
  const headTone = cell.state === 'running' ? 'warn' : cell.state === 'failed' ? 'error' : 'ok';
  out.push(
    line(
      displayWidth(full) <= width ? full : `${truncate(`${head}${cell.argsText}`, width - 1)})`,
      headTone,
    ),
  );
  const duration = cell.durationMs === null ? '' : ` in ${formatDuration(cell.durationMs)}`;
  const status =
    cell.state === 'running'
      ? 'running…'
      : cell.state === 'failed'
        ? `failed${duration}`
        : `completed${duration}`;
  out.push(line(truncate(`  └ ${status}`, width), cell.state === 'failed' ? 'error' : 'dim'));
  if (cell.error !== null) {
    out.push(
      ...clampLines(
        wrap(`Error: ${cell.error}`, width, '    ', '    '),
        PREVIEW_ROWS + 2,
        width,
      ).map((t) => line(t, 'error')),
    );
  } else if (cell.result !== null) {
    const text = resultText(cell.result);
    const isError = cell.result.isError === true;
    const body = text === '' ? '(no content)' : isError ? `Error: ${text}` : text;
    out.push(
      ...clampLines(wrap(body, width, '    ', '    '), PREVIEW_ROWS, width).map((t) =>
        line(t, isError ? 'error' : 'plain'),
      ),
    );
  }
  return out;
}
