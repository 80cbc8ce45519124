/**
 * MCP tasks through `mcprt serve`, both eras (docs/gateway.md "Tasks"): a client that declares
 * tasks — 2025-11-25 `params.task` on the call, 2026-07-28 the `io.modelcontextprotocol/tasks`
 * extension in its request capabilities — gets a task of the gateway's (taskTable.ts) when the
 * server behind the tool makes one, and the call's result at once when it does not. The runtime
 * follows the server's task; the client polls the gateway (`tasks/get`; 2025 also `tasks/result`,
 * `tasks/list`), cancels it (`tasks/cancel`: the server is sent its own), and only ever sees its
 * own tasks. The server's questions during the task wait for that client (taskInputs.ts): a 2025
 * client is asked inside its `tasks/result`, a 2026 one reads them in `tasks/get` and answers
 * with `tasks/update`. The capability is advertised unless every registration is known not to
 * do tasks.
 */

import type {
  ElicitationRequest,
  ElicitationResponse,
  RegistrationScope,
  Session,
  TaskRef,
  TaskState,
} from '@mcprt/runtime';
import { CallCancel, withCallOrigin } from '@mcprt/runtime';
import { CLIENT_CAPABILITIES_META_KEY, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import type { CallToolResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { answersFrom, clientModes, embeddedRequest, inputRequestsFor } from './elicitation.js';
import type { GatewayCore } from './serverFactory.js';
import { TaskInputs } from './taskInputs.js';
import type { Run } from './toolCall.js';
import { toolFailure } from './toolCall.js';
import type { GatewayTask, GatewayTaskTable } from './taskTable.js';
import { TASK_POLL_MS, TASK_TTL_MS } from './taskTable.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

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
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
  const extensions = isObject(capabilities) ? capabilities['extensions'] : undefined;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]) ? 'extension' : null;
}

/**
 * Run the call; if the server makes a task of it, answer with the gateway's task (the call goes
 * on), else with its result (a failure: the tool error the model sees).
 */
export async function callAsTask(
  core: GatewayCore,
  server: Server,
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
  // The call's origin: the server's questions during the task wait there for this client.
  const inputs = new TaskInputs(clientModes(server, ctx), core.inputTimeoutMs);
  const options = {
    wanted: wire === 'core',
    onCreated: (ref: TaskRef) => {
      inputs.open();
      made(ref);
    },
    onState: (state: TaskState) => holder.task && core.tasks.update(holder.task, state),
  };
  const call = withCallOrigin(inputs, () => run(cancel, () => undefined, options)).then(
    (result) => result as CallToolResult,
    (error: unknown) => toolFailure(error),
  );
  const first = await Promise.race([created, call.then((result) => ({ result }))]);
  ctx.mcpReq.signal.removeEventListener('abort', onAbort);
  if ('result' in first) {
    inputs.close();
    return first.result;
  }
  const task = (holder.task = core.tasks.add(
    core.client.callerKey,
    scope,
    first,
    cancel,
    call,
    inputs,
  ));
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
  // 2026: the answers to the questions `tasks/get` showed (`inputRequests`), by their keys.
  // (The SDK lifts `inputResponses` off the params, as off a retried call's.)
  server.setRequestHandler('tasks/update', byId, async (params, ctx) => {
    const task = table().get(params.taskId, core.client.callerKey);
    task.inputs.answer(answersFrom(ctx.mcpReq.inputResponses));
    return {};
  });
  // 2025 only (2026 has no `tasks/result` or `tasks/list`: the SDK answers them Method not found).
  // While it waits, the task's questions are sent to the client (`elicitation/create`).
  server.setRequestHandler('tasks/result', byId, async (params, ctx) => {
    const task = table().get(params.taskId, core.client.callerKey);
    if (task.endedAt === undefined) await relayQuestions(server, task, ctx, core.inputTimeoutMs);
    const result = task.result ?? (await task.done);
    if (task.status === 'cancelled') throw cancelledError(task);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: task.id } } };
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

/**
 * 2025: inside the client's `tasks/result`, send each question of the task's server to the client
 * (on the request's stream, naming the task) and hand its answer back, until the task ends or the
 * client's request goes away (a question it did not answer is sent again by its next one).
 */
async function relayQuestions(
  server: Server,
  task: GatewayTask,
  ctx: ServerContext,
  timeoutMs: number,
): Promise<void> {
  const signal = ctx.mcpReq.signal;
  const gone = new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  while (task.endedAt === undefined && !signal.aborted) {
    for (const [key, request] of task.inputs.takeUnsent()) {
      void askClient(server, task, request, {
        relatedRequestId: ctx.mcpReq.id,
        signal,
        timeout: timeoutMs,
      })
        .then((response) => task.inputs.answer(new Map([[key, response]])))
        .catch(() => task.inputs.unsent(key));
    }
    await Promise.race([task.done, task.inputs.next(), gone]);
  }
}

async function askClient(
  server: Server,
  task: GatewayTask,
  request: ElicitationRequest,
  options: { relatedRequestId: string | number; signal: AbortSignal; timeout: number },
): Promise<ElicitationResponse> {
  const embedded = embeddedRequest(request);
  const params = embedded.params as Record<string, unknown>;
  const _meta = { ...(params['_meta'] as object), [RELATED_TASK_META_KEY]: { taskId: task.id } };
  const reply = await server.request(
    { method: 'elicitation/create', params: { ...params, _meta } },
    options,
  );
  return reply.action === 'accept'
    ? { action: 'accept', content: (reply.content ?? {}) as Record<string, unknown> }
    : { action: reply.action };
}

function cancelledError(task: GatewayTask): Error {
  return Object.assign(new Error(`task ${task.id} was cancelled`), { code: -32603 });
}

/**
 * The status a client reads: `input_required` exactly while a question waits for it here; the
 * server's own `input_required` (a question the gateway is answering) reads `working`.
 */
function statusOf(task: GatewayTask): string {
  if (task.endedAt !== undefined) return task.status;
  if (task.inputs.waiting) return 'input_required';
  return task.status === 'input_required' ? 'working' : task.status;
}

/** A task as 2025-11-25 clients read it. */
function legacyView(task: GatewayTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: statusOf(task),
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
    status: statusOf(task),
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: TASK_POLL_MS,
  };
}

/** 2026 `tasks/get`: with the questions waiting for the client, or the result once completed. */
function detailedView(task: GatewayTask): Record<string, unknown> {
  const view = modernView(task);
  if (view['status'] === 'input_required') {
    return { ...view, inputRequests: inputRequestsFor(task.inputs.pending()) };
  }
  return task.status === 'completed' && task.result !== undefined
    ? { ...view, result: task.result }
    : view;
}
