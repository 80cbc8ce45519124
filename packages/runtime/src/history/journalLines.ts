/**
 * The history journal's line format (ADR 0017): one JSON object per line, written from values
 * that are already redacted and capped (history/redact.ts), so nothing secret reaches the disk.
 *   {"k":"s","id","thread","server","env","tool","at","view",["sub","client",]"args"}  a call started
 *   {"k":"f","id","status","ms","truncated","error","result"}                         a call finished
 *   {"k":"t","id","task","wire"}                       the server made the call a task (its id)
 * `args` and `result` are embedded as JSON values (the stored JSON text as is, no second
 * encoding on the call path); `parseJournalLine` validates a line read back and turns it into the
 * rows the database stores. A start line written before views existed has no `view`: it reads as
 * null. `sub` and `client` (the gateway caller's subject and client id) are written only for a
 * call with a caller; a line without them — every line written before callers were recorded —
 * reads as no caller. A `refused` call (never sent, see history/types.ts) is a start line and a
 * finish line like any other.
 */

import type { HistoryCaller, ToolCallStatus } from './types.js';

export interface StartRow {
  readonly id: string;
  readonly threadId: string;
  readonly server: string;
  readonly environmentId: string | null;
  readonly tool: string;
  readonly arguments: string | null;
  readonly startedAt: number;
  /** The view the call was made through (null: none). */
  readonly view: string | null;
  /** Who asked for the call through the gateway (null: none; never both fields null). */
  readonly caller: HistoryCaller | null;
}

export interface FinishRow {
  readonly id: string;
  readonly status: Exclude<ToolCallStatus, 'inProgress'>;
  readonly result: string | null;
  readonly truncated: 0 | 1;
  readonly error: string | null;
  readonly durationMs: number;
}

/** The server made a call a task: the task's id and wire (connection/taskWire.ts). */
export interface TaskRow {
  readonly id: string;
  readonly taskId: string;
  readonly wire: 'core' | 'extension';
}

export type JournalRecord =
  | { readonly kind: 'start'; readonly row: StartRow }
  | { readonly kind: 'task'; readonly row: TaskRow }
  | {
      readonly kind: 'finish';
      readonly row: FinishRow;
    };

const str = JSON.stringify;

/** Quoted forms of the strings that recur in every start line (thread, server, tool, env). */
const quoted = new Map<string, string>();
const QUOTED_CACHE_SIZE = 256;
function quote(text: string | null): string {
  if (text === null) return 'null';
  let q = quoted.get(text);
  if (q === undefined) {
    if (quoted.size >= QUOTED_CACHE_SIZE) quoted.clear();
    quoted.set(text, (q = str(text)));
  }
  return q;
}

/** A start line; `argumentsJson` is the redacted arguments' JSON text (or null). */
export function startLine(row: StartRow): string {
  const caller = row.caller;
  const who =
    caller === null ? '' : `,"sub":${quote(caller.subject)},"client":${quote(caller.clientId)}`;
  return `{"k":"s","id":${str(row.id)},"thread":${quote(row.threadId)},"server":${quote(row.server)},"env":${quote(row.environmentId)},"tool":${quote(row.tool)},"at":${str(row.startedAt)},"view":${quote(row.view)}${who},"args":${row.arguments ?? 'null'}}\n`;
}

export function finishLine(row: FinishRow): string {
  return `{"k":"f","id":${str(row.id)},"status":${str(row.status)},"ms":${str(row.durationMs)},"truncated":${row.truncated === 1},"error":${str(row.error)},"result":${row.result ?? 'null'}}\n`;
}

export function taskLine(row: TaskRow): string {
  return `{"k":"t","id":${str(row.id)},"task":${str(row.taskId)},"wire":${str(row.wire)}}\n`;
}

export class JournalLineError extends Error {
  readonly code = 'HISTORY_JOURNAL_LINE';
}

const STATUSES = new Set(['completed', 'failed', 'cancelled', 'refused']);
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * The stored text of a line's last member (`args` or `result`, after `fields` validated members):
 * the line's own text of it when the line has exactly the members `startLine`/`finishLine`
 * write, this one last, the line ending right after it and `,"<key>":` appearing once in the
 * line; else the parsed value encoded again (ADR 0022). That one `,"<key>":` is the member
 * itself: every earlier value is a string, number, boolean or null, and a string cannot hold an
 * unescaped `"` right after a `,`.
 */
function lastMemberText(
  text: string,
  v: Record<string, unknown>,
  fields: number,
  key: string,
): string | null {
  const value = v[key];
  if (value === null || value === undefined) return null;
  const keys = Object.keys(v);
  if (keys.length === fields + 1 && keys[fields] === key && text.endsWith('}')) {
    const marker = `,"${key}":`;
    const at = text.indexOf(marker);
    if (at > 0 && at === text.lastIndexOf(marker)) {
      return text.slice(at + marker.length, -1).trim();
    }
  }
  return json(value);
}

/** The record of one line (without its newline); throws `JournalLineError` saying what is wrong. */
export function parseJournalLine(text: string): JournalRecord {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new JournalLineError(`not JSON (${(error as Error).message})`, { cause: error });
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new JournalLineError('not a JSON object');
  }
  if (v['k'] === 's') {
    const { id, thread, server, env, tool, at, view, sub, client } = v;
    if (!isString(id) || !isString(thread) || !isString(server) || !isString(tool)) {
      throw new JournalLineError('start record without id, thread, server or tool');
    }
    if (!isStringOrNull(env) || !isNumber(at)) {
      throw new JournalLineError(`start record ${id}: bad env or at`);
    }
    // Absent in lines written before views existed (7 members before `args`, else 8).
    if (view !== undefined && !isStringOrNull(view)) {
      throw new JournalLineError(`start record ${id}: bad view`);
    }
    // Present only for a call with a caller (2 more members before `args`).
    if (
      (sub !== undefined && !isStringOrNull(sub)) ||
      (client !== undefined && !isStringOrNull(client))
    ) {
      throw new JournalLineError(`start record ${id}: bad sub or client`);
    }
    const members =
      7 +
      (view === undefined ? 0 : 1) +
      (sub === undefined ? 0 : 1) +
      (client === undefined ? 0 : 1);
    const subject = sub ?? null;
    const clientId = client ?? null;
    return {
      kind: 'start',
      row: {
        id,
        threadId: thread,
        server,
        environmentId: env,
        tool,
        arguments: lastMemberText(text, v, members, 'args'),
        startedAt: at,
        view: view ?? null,
        caller: subject === null && clientId === null ? null : { subject, clientId },
      },
    };
  }
  if (v['k'] === 'f') {
    const { id, status, ms, truncated, error } = v;
    if (!isString(id) || !isString(status) || !STATUSES.has(status)) {
      throw new JournalLineError('finish record without id or with an unknown status');
    }
    if (!isNumber(ms) || typeof truncated !== 'boolean' || !isStringOrNull(error)) {
      throw new JournalLineError(`finish record ${id}: bad ms, truncated or error`);
    }
    return {
      kind: 'finish',
      row: {
        id,
        status: status as FinishRow['status'],
        result: lastMemberText(text, v, 6, 'result'),
        truncated: truncated ? 1 : 0,
        error,
        durationMs: ms,
      },
    };
  }
  if (v['k'] === 't') {
    const { id, task, wire } = v;
    if (!isString(id) || !isString(task) || (wire !== 'core' && wire !== 'extension')) {
      throw new JournalLineError('task record without id, task or a known wire');
    }
    return { kind: 'task', row: { id, taskId: task, wire } };
  }
  throw new JournalLineError(`unknown record kind ${JSON.stringify(v['k'])}`);
}
