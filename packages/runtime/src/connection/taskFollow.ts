/**
 * Following a task to its end (both eras, taskWire.ts): polls `tasks/get` at the server's poll
 * interval (bounded), relays each new status message to the host as progress, answers 2026
 * input requests through the host's elicitation handler (`tasks/update`, each key once), and on
 * 2025 waits on `tasks/result` (the server's elicitations during it reach the host as any other).
 * The deadline covers the whole task; past it, or when the caller cancels, the server is sent
 * `tasks/cancel` and the call fails. A task that failed rejects with the server's JSON-RPC error;
 * one the server cancelled, or forgot, rejects saying so.
 */

import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { ElicitationResponse, ServerElicitation } from '../elicitation/types.js';
import { currentCallOrigin } from './callOrigin.js';
import { checkFormReply } from './elicitationReply.js';
import type { CallToolResult, ProgressUpdate } from './mcpTypes.js';
import type { RawRequestOptions } from './rawRequests.js';
import type { TaskRef, TaskState } from './taskWire.js';
import { isTerminal, pollDelay, taskState } from './taskWire.js';

export interface TaskIo {
  request(
    method: string,
    params: Record<string, unknown>,
    options: RawRequestOptions,
  ): Promise<Record<string, unknown>>;
  elicit(request: ServerElicitation): Promise<ElicitationResponse>;
}

export interface FollowOptions {
  /** Epoch ms by which the task must have ended. */
  readonly deadline: number;
  /** Human words for the deadline's setting, for the timeout message. */
  readonly deadlineLabel: string;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  /** Each state the server reported. */
  readonly onState?: ((state: TaskState) => void) | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follow `ref` from `first` (null: ask the server first — a resumed task). */
export async function followTask(
  io: TaskIo,
  ref: TaskRef,
  first: TaskState | null,
  options: FollowOptions,
): Promise<CallToolResult> {
  const stop = new AbortController();
  const { signal } = options;
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => stop.abort(new SdkError(SdkErrorCode.RequestTimeout, timeoutText(ref, options))),
    Math.max(1, options.deadline - Date.now()),
  );
  try {
    return await (ref.wire === 'extension'
      ? followExtension(io, ref, first, options, stop.signal)
      : followCore(io, ref, first, options, stop.signal));
  } catch (error) {
    if (stop.signal.aborted) {
      // Cancelled or out of time: the server is told (best effort) and the call fails.
      const cancel = { timeoutMs: 5000 };
      await io.request('tasks/cancel', { taskId: ref.taskId }, cancel).catch(() => undefined);
      const reason: unknown = stop.signal.reason;
      throw reason instanceof Error
        ? reason
        : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
    }
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

const timeoutText = (ref: TaskRef, options: FollowOptions) =>
  `task ${ref.taskId} did not finish within ${options.deadlineLabel}; mcprt asked the server to cancel it`;

/** 2026: poll until terminal; input requests answered on the way. */
async function followExtension(
  io: TaskIo,
  ref: TaskRef,
  first: TaskState | null,
  options: FollowOptions,
  stop: AbortSignal,
): Promise<CallToolResult> {
  const progress = progressRelay(options);
  const answered = new Set<string>();
  let state = first ?? (await poll(io, ref, stop));
  for (;;) {
    options.onState?.(state);
    progress(state);
    if (state.status === 'completed') {
      if (!isObject(state.result)) throw invalid(ref, 'completed without a result');
      return state.result as CallToolResult;
    }
    if (state.status === 'failed') throw serverError(ref, state.error);
    if (state.status === 'cancelled') throw cancelledByServer(ref, state.statusMessage);
    if (state.status === 'input_required') await answerInputs(io, ref, state, answered, stop);
    await sleep(pollDelay(state), stop);
    state = await poll(io, ref, stop);
  }
}

/** 2025: `tasks/result` holds the payload; `tasks/get` meanwhile for status messages. */
async function followCore(
  io: TaskIo,
  ref: TaskRef,
  first: TaskState | null,
  options: FollowOptions,
  stop: AbortSignal,
): Promise<CallToolResult> {
  const progress = progressRelay(options);
  const watching = new AbortController();
  const watch = async () => {
    let state = first ?? (await poll(io, ref, watching.signal));
    for (;;) {
      options.onState?.(state);
      progress(state);
      if (isTerminal(state.status)) return;
      await sleep(pollDelay(state), watching.signal);
      state = await poll(io, ref, watching.signal);
    }
  };
  const onStop = () => watching.abort(stop.reason);
  stop.addEventListener('abort', onStop, { once: true });
  const watched = watch().catch(() => undefined);
  try {
    const timeoutMs = Math.max(1, options.deadline - Date.now());
    const result = await io.request(
      'tasks/result',
      { taskId: ref.taskId },
      { timeoutMs, signal: stop },
    );
    return result as CallToolResult;
  } finally {
    stop.removeEventListener('abort', onStop);
    watching.abort();
    await watched;
  }
}

async function poll(io: TaskIo, ref: TaskRef, signal: AbortSignal): Promise<TaskState> {
  const raw = await io.request('tasks/get', { taskId: ref.taskId }, { timeoutMs: 30_000, signal });
  const state = taskState(raw);
  if (state.taskId !== ref.taskId) throw invalid(ref, `answered for task ${state.taskId}`);
  return state;
}

/** Each input request the host has not answered yet, through its elicitation handler. */
async function answerInputs(
  io: TaskIo,
  ref: TaskRef,
  state: TaskState,
  answered: Set<string>,
  signal: AbortSignal,
): Promise<void> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(state.inputRequests ?? {})) {
    if (answered.has(key)) continue;
    const method = isObject(request) ? request['method'] : undefined;
    const params = isObject(request) && isObject(request['params']) ? request['params'] : {};
    if (method !== 'elicitation/create') {
      throw invalid(ref, `asked for ${String(method)}, which mcprt does not provide`);
    }
    responses[key] = await elicit(io, key, params, signal);
    answered.add(key);
  }
  if (Object.keys(responses).length === 0) return;
  await io.request(
    'tasks/update',
    { taskId: ref.taskId, inputResponses: responses },
    { timeoutMs: 30_000, signal },
  );
}

async function elicit(
  io: TaskIo,
  key: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const mode = params['mode'] === 'url' ? 'url' : 'form';
  const reply = await io.elicit({
    requestId: key,
    mode,
    message: typeof params['message'] === 'string' ? params['message'] : '',
    ...(mode === 'form' ? { requestedSchema: params['requestedSchema'] } : {}),
    ...(typeof params['url'] === 'string' ? { url: params['url'] } : {}),
    ...(typeof params['elicitationId'] === 'string'
      ? { elicitationId: params['elicitationId'] }
      : {}),
    _meta: params['_meta'] ?? null,
    signal,
    // The follow loop runs in the call's continuation: its origin (callOrigin.ts).
    origin: currentCallOrigin(),
  });
  if (reply.action !== 'accept') return { action: reply.action };
  const content =
    mode === 'form' ? checkFormReply(params['requestedSchema'], reply.content ?? {}) : undefined;
  return { action: 'accept', ...(content !== undefined ? { content } : {}) };
}

/** Status messages as progress: one update per new message. */
function progressRelay(options: FollowOptions): (state: TaskState) => void {
  let last: string | undefined;
  let count = 0;
  return (state) => {
    const message = state.statusMessage;
    if (options.onProgress === undefined || message === undefined || message === last) return;
    last = message;
    options.onProgress({ progress: ++count, message });
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function serverError(ref: TaskRef, error: unknown): Error {
  if (isObject(error) && typeof error['code'] === 'number') {
    const message = typeof error['message'] === 'string' ? error['message'] : '';
    return ProtocolError.fromError(error['code'], message, error['data']);
  }
  return invalid(ref, 'failed without a JSON-RPC error');
}

const cancelledByServer = (ref: TaskRef, why: string | undefined) =>
  new SdkError(
    SdkErrorCode.InvalidResult,
    `the server cancelled task ${ref.taskId}${why === undefined ? '' : `: ${why}`}`,
  );

const invalid = (ref: TaskRef, what: string) =>
  new SdkError(SdkErrorCode.InvalidResult, `task ${ref.taskId}: the server ${what}`);
