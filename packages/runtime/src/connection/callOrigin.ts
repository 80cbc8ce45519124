/**
 * Which call a server's request belongs to. A host serving several clients over one connection
 * per registration (the gateway over HTTP) must send an elicitation to the client whose call
 * caused it. The protocol links them where it can: a 2026-07-28 server's input requests come back
 * inside the call's own result, and a 2025 HTTP server sends its request on the call's response
 * stream. The SDK hands neither link to the client's request handler, but both arrive in the
 * async continuation of the call itself, so the call's origin travels with it in an
 * `AsyncLocalStorage` (Node's standard async context, what OpenTelemetry uses too).
 *
 * A 2025 stdio server's request carries no link at all: it arrives from the process's output
 * stream, whose async context is the connection's start. Connection attempts therefore run
 * outside any call's origin (`outsideCallOrigins`), so a process started while a call was waiting
 * can never attribute later requests to that call; such requests get origin null.
 *
 * A task's input requests are linked too: a 2026-07-28 task's come back through the follow loop,
 * which runs in the call's continuation, and a 2025 task's `elicitation/create` names its task
 * (`io.modelcontextprotocol/related-task` in `_meta`), whose call's origin is noted while the task
 * is followed (`noteTaskOrigin`, `relatedTaskOrigin`).
 *
 * Only hosts that need the link pay for it: the storage is first used by `withCallOrigin`, and
 * on Node 20 an active AsyncLocalStorage makes every promise a little slower.
 */

import { AsyncLocalStorage } from 'node:async_hooks';

import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';

const origins = new AsyncLocalStorage<object>();

/** Run `fn` (the call) with `origin` as its requests' origin. */
export function withCallOrigin<T>(origin: object, fn: () => T): T {
  return origins.run(origin, fn);
}

/** The origin of the call whose continuation this is (null: none, or not known). */
export function currentCallOrigin(): object | null {
  return origins.getStore() ?? null;
}

/** Run `fn` with no call's origin (a connection attempt: its streams outlive any call). */
export function outsideCallOrigins<T>(fn: () => T): T {
  return origins.getStore() === undefined ? fn() : origins.exit(fn);
}

/** Per client connection (the SDK client object): the origin of each task being followed. */
const taskOrigins = new WeakMap<object, Map<string, object>>();

/**
 * While `taskId` of `client`'s server is followed, requests naming it get the current call's
 * origin (none: nothing noted). Returns what ends the note.
 */
export function noteTaskOrigin(client: object, taskId: string): () => void {
  const origin = currentCallOrigin();
  if (origin === null) return () => undefined;
  let byTask = taskOrigins.get(client);
  if (byTask === undefined) taskOrigins.set(client, (byTask = new Map()));
  byTask.set(taskId, origin);
  return () => {
    if (byTask.get(taskId) === origin) byTask.delete(taskId);
  };
}

/** The origin noted for the task a request's `_meta` names (null: none, or not followed). */
export function relatedTaskOrigin(client: object, meta: unknown): object | null {
  const related = isObject(meta) ? meta[RELATED_TASK_META_KEY] : undefined;
  const taskId = isObject(related) ? related['taskId'] : undefined;
  if (typeof taskId !== 'string') return null;
  return taskOrigins.get(client)?.get(taskId) ?? null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
