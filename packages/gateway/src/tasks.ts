/**
 * MCP tasks through `mcprt serve`, both eras (docs/gateway.md "Tasks"): a client that declares
 * tasks — 2025-11-25 `params.task` on the call, 2026-07-28 the `io.modelcontextprotocol/tasks`
 * extension in its request capabilities — gets a task of the gateway's (taskTable.ts) when the
 * server behind the tool makes one, and the call's result at once when it does not. The runtime
 * follows the server's task; the client polls the gateway (`tasks/get`; 2025 also `tasks/result`,
 * `tasks/list`), cancels it (`tasks/cancel`: the server is sent its own), and only ever sees its
 * own tasks. The capability is advertised unless every registration is known not to do tasks.
 */

import type { RegistrationScope, Session, TaskRef } from '@mcprt/runtime';
import { CallCancel } from '@mcprt/runtime';
import type { CallToolResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { GatewayCore } from './serverFactory.js';
import type { Run } from './toolCall.js';
import { toolFailure } from './toolCall.js';
import type { GatewayTask, GatewayTaskTable } from './taskTable.js';
import { TASK_POLL_MS, TASK_TTL_MS } from './taskTable.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

type Wire = 'core' | 'extension';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether this request's client takes a task for an answer, and on which wire. */
export function taskRequested(
  ctx: ServerContext,
  params: { readonly task?: unknown },
): Wire | null {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope === undefined) return isObject(params.task) ? 'core' : null;
  const capabilities = envelope[CLIENT_CAPABILITIES];
  const extensions = isObject(capabilities) ? capabilities['extensions'] : undefined;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]) ? 'extension' : null;
}

/**
 * Run the call; if the server makes a task of it, answer with the gateway's task (the call goes
 * on), else with its result (a failure: the tool error the model sees).
 */
export async function callAsTask(
  core: GatewayCore,
  start: () => Promise<{ scope: RegistrationScope; run: Run }>,
  wire: Wire,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const { scope, run } = await start();
  const cancel = new CallCancel();
  // Until the task exists the request is the call: cancelling it cancels the call.
  const onAbort = () => cancel.abort(ctx.mcpReq.signal.reason);
  ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
  let made: (ref: TaskRef) => void = () => undefined;
  const created = new Promise<TaskRef>((resolve) => (made = resolve));
  const holder: { task?: GatewayTask } = {};
  const call = run(cancel, () => undefined, {
    wanted: wire === 'core',
    onCreated: (ref) => made(ref),
    onState: (state) => holder.task && core.tasks.update(holder.task, state),
  }).then(
    (result) => result as CallToolResult,
    (error: unknown) => toolFailure(error),
  );
  const first = await Promise.race([created, call.then((result) => ({ result }))]);
  ctx.mcpReq.signal.removeEventListener('abort', onAbort);
  if ('result' in first) return first.result;
  const task = (holder.task = core.tasks.add(core.client.callerKey, scope, first, cancel, call));
  // A CreateTaskResult in place of the call's result. On 2025 it also carries an empty `content`:
  // the SDK server validates every tools/call result as a CallToolResult (CreateTaskResult
  // allows other members; a client tells the two apart by `task`).
  const answer: Record<string, unknown> =
    wire === 'extension'
      ? { resultType: 'task', ...modernView(task) }
      : { content: [], task: legacyView(task) };
  return answer as unknown as CallToolResult;
}

/** `tasks/*` for this client (its caller's tasks only). */
export function serveTasks(server: Server, core: GatewayCore): void {
  const byId = { params: z.looseObject({ taskId: z.string() }) };
  const table = (): GatewayTaskTable => core.tasks;
  const modern = (ctx: ServerContext) => ctx.mcpReq.envelope !== undefined;
  server.setRequestHandler('tasks/get', byId, async (params, ctx) => {
    const task = table().get(params.taskId, core.client.callerKey);
    return modern(ctx) ? detailedView(task) : legacyView(task);
  });
  server.setRequestHandler('tasks/cancel', byId, async (params, ctx) => {
    const task = table().get(params.taskId, core.client.callerKey);
    table().cancel(task);
    return modern(ctx) ? {} : legacyView(task);
  });
  // 2026: the gateway's tasks never ask for input themselves; answers are acknowledged.
  // (Its `inputResponses` are the SDK's to lift, as a retried call's are.)
  server.setRequestHandler('tasks/update', byId, async (params) => {
    table().get(params.taskId, core.client.callerKey);
    return {};
  });
  // 2025 only (2026 has no `tasks/result` or `tasks/list`: the SDK answers them Method not found).
  server.setRequestHandler('tasks/result', byId, async (params) => {
    const task = table().get(params.taskId, core.client.callerKey);
    const result = task.result ?? (await task.done);
    if (task.status === 'cancelled') throw cancelledError(task);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK]: { taskId: task.id } } };
  });
  server.setRequestHandler(
    'tasks/list',
    { params: z.looseObject({ cursor: z.string().optional() }).optional() },
    async () => ({ tasks: table().list(core.client.callerKey).map(legacyView) }),
  );
}

/** Whether to advertise tasks: unless every registration is known not to do them. */
export function gatewayDoesTasks(session: Session): boolean {
  return session.listStatus().some((status) => {
    if (!status.enabled) return false;
    const capabilities = status.capabilities;
    if (capabilities === null) return true;
    const extensions = capabilities['extensions'];
    return (
      isObject(capabilities['tasks']) ||
      (isObject(extensions) && isObject(extensions[TASKS_EXTENSION]))
    );
  });
}

/** Advertise tasks (2025 `capabilities.tasks`, 2026 the extension) while `gatewayDoesTasks`. */
export function advertiseTasks(server: Server, session: Session): void {
  const capabilities = server.getCapabilities.bind(server);
  server.getCapabilities = () => {
    const own = capabilities();
    if (!gatewayDoesTasks(session)) return own;
    return {
      ...own,
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { ...own.extensions, [TASKS_EXTENSION]: {} },
    } as typeof own;
  };
}

function cancelledError(task: GatewayTask): Error {
  return Object.assign(new Error(`task ${task.id} was cancelled`), { code: -32603 });
}

/** A task as 2025-11-25 clients read it. */
function legacyView(task: GatewayTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: TASK_TTL_MS,
    pollInterval: TASK_POLL_MS,
  };
}

/** A task as 2026-07-28 clients read it (the create result's fields). */
function modernView(task: GatewayTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: TASK_POLL_MS,
  };
}

/** 2026 `tasks/get`: with the result once completed. */
function detailedView(task: GatewayTask): Record<string, unknown> {
  const view = modernView(task);
  return task.status === 'completed' && task.result !== undefined
    ? { ...view, result: task.result }
    : view;
}
