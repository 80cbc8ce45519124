/**
 * The MCP tasks feature's wire in both eras, and nothing else: whether a call goes as a task,
 * and the task a server's answer holds.
 * - 2025-11-25 (core tasks): a tool declares `execution.taskSupport` (`required`, `optional`,
 *   `forbidden`); the server advertises `capabilities.tasks.requests.tools.call`; the client asks
 *   with `params.task` and gets `{ task: Task }`; `tasks/get` polls, `tasks/result` blocks for the
 *   payload, `tasks/cancel` cancels.
 * - 2026-07-28 (extension `io.modelcontextprotocol/tasks`, SEP-2663): the server advertises the
 *   extension; the client declares it per request; the server decides, answering
 *   `resultType: "task"` with the task inline; `tasks/get` carries `result` / `error` /
 *   `inputRequests`, `tasks/update` answers input requests, `tasks/cancel` cancels.
 */

import type { ServerCapabilities, ToolDefinition } from './mcpTypes.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The longest task id kept (ids are opaque tokens: UUIDs, job ids). */
export const MAX_TASK_ID = 256;

/** Which wire a task speaks: 2025-11-25's core tasks or the 2026-07-28 extension. */
export type TaskWire = 'core' | 'extension';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as a server reported it (either era), with the 2026 inline payloads. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly pollIntervalMs?: number | undefined;
  /** 2026: outstanding server requests by key (status `input_required`). */
  readonly inputRequests?: Readonly<Record<string, unknown>> | undefined;
  /** 2026: the final result (status `completed`). */
  readonly result?: unknown;
  /** 2026: the JSON-RPC error (status `failed`). */
  readonly error?: unknown;
}

/** What a host keeps to find a task again (the history stores it). */
export interface TaskRef {
  readonly taskId: string;
  readonly wire: TaskWire;
}

const STATUSES = new Set<string>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
export const isTerminal = (status: TaskStatus): boolean =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a server's capabilities offer tasks in either era (2025 tool calls, 2026 extension). */
export function offersTasks(capabilities: ServerCapabilities | undefined): boolean {
  return (
    taskWireFor(true, capabilities, () => undefined, false) !== null ||
    taskWireFor(
      false,
      capabilities,
      () => ({ name: '', execution: { taskSupport: 'required' } }),
      false,
    ) !== null
  );
}

/**
 * How a call of `tool` goes: `extension` (2026: the server may answer with a task), `core`
 * (2025: asked for as a task — the tool requires it, or allows it and the caller asked) or null
 * (a plain call).
 */
export function taskWireFor(
  modern: boolean,
  capabilities: ServerCapabilities | undefined,
  tool: () => ToolDefinition | undefined,
  wanted: boolean,
): TaskWire | null {
  if (modern) {
    const extensions = capabilities?.['extensions'];
    return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]) ? 'extension' : null;
  }
  const tasks = capabilities?.['tasks'];
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  if (!isObject(tools) || !isObject(tools['call'])) return null;
  const execution = tool()?.['execution'];
  const support = isObject(execution) ? execution['taskSupport'] : undefined;
  return support === 'required' || (support === 'optional' && wanted) ? 'core' : null;
}

/** The task in a `tools/call` answer (2025: `{task}`; 2026: `resultType: "task"`), or null. */
export function createdTask(wire: TaskWire, raw: Record<string, unknown>): TaskState | null {
  if (wire === 'extension') return raw['resultType'] === 'task' ? taskState(raw) : null;
  return isObject(raw['task']) ? taskState(raw['task']) : null;
}

/** A task object read off the wire; throws naming what is wrong. */
export function taskState(raw: Record<string, unknown>): TaskState {
  const { taskId, status, statusMessage } = raw;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new TypeError('the server sent a task without a taskId');
  }
  // The id is stored, shown and polled with: an id no job system needs is refused, not kept.
  if (taskId.length > MAX_TASK_ID || hasControl(taskId)) {
    throw new TypeError(
      `the server sent a task id that is not a plain string of at most ${MAX_TASK_ID} characters`,
    );
  }
  if (typeof status !== 'string' || !STATUSES.has(status)) {
    throw new TypeError(`the server sent task ${taskId} with an unknown status ${String(status)}`);
  }
  const poll = raw['pollIntervalMs'] ?? raw['pollInterval'];
  return {
    taskId,
    status: status as TaskStatus,
    ...(typeof statusMessage === 'string' ? { statusMessage } : {}),
    ...(typeof poll === 'number' && Number.isFinite(poll) ? { pollIntervalMs: poll } : {}),
    ...(isObject(raw['inputRequests']) ? { inputRequests: raw['inputRequests'] } : {}),
    ...('result' in raw ? { result: raw['result'] } : {}),
    ...('error' in raw ? { error: raw['error'] } : {}),
  };
}

/** Whether `text` holds a C0 control character or DEL (a terminal escape, a line break). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The poll interval to use: the server's, bounded to 100 ms – 5 s (default 1 s). */
export function pollDelay(state: TaskState): number {
  const asked = state.pollIntervalMs ?? 1000;
  return Math.min(5000, Math.max(100, asked));
}
