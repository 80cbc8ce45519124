/**
 * `mcpServerStatus/list`. With `threadId`: that thread's registrations, live. Without: the shared
 * probe session (see probe.ts), never a fresh spawn per call. `serverName` returns every
 * registration of that name; `environmentId` narrows to that scope (with or without
 * `serverName`); an environment that is not configured is an error, one that matches nothing is
 * an empty page (Codex). Sorted by name, then thread-wide before the environments in thread
 * order. Cursor = decimal offset, with Codex's error texts.
 *
 * A thread under a view (`thread/start { view }`) lists every registration it runs — a host
 * sees each server's connection whatever the view — but each one's `tools` and `modelToolNames`
 * are only the view's tools, under the names the view gives them, and a server outside the view
 * (`ViewSelection.includesServer`) lists no resources or templates either; its `tools` are then
 * empty unless a pattern picks single tools of it.
 */

import type { ServerStatus, Session, ToolView } from '@mcprt/runtime';
import { UnknownEnvironmentError } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { requireThread } from '../context.js';
import { invalidRequest } from '../errorMap.js';
import type { StatusDetail } from '../statusMapper.js';
import { toWireStatus } from '../statusMapper.js';

interface ListInput {
  readonly cursor?: string | null | undefined;
  readonly limit?: number | null | undefined;
  readonly detail?: StatusDetail | null | undefined;
  readonly threadId?: string | null | undefined;
  readonly serverName?: string | null | undefined;
  readonly environmentId?: string | null | undefined;
}

export async function listServerStatus(params: ListInput, ctx: HandlerContext) {
  const threadId = params.threadId ?? null;
  const session: Session =
    threadId !== null ? requireThread(ctx, threadId).session : await ctx.state.probe.get();
  const environmentId = params.environmentId ?? null;
  if (environmentId !== null && !ctx.state.runtime.environments.has(environmentId)) {
    throw new UnknownEnvironmentError(environmentId);
  }
  const order = new Map<string | null, number>([[null, -1]]);
  session.environments.forEach((e, i) => order.set(e.environmentId, i));
  const view = threadId !== null && session.view !== null ? session.toolView() : null;
  const listed = session.listStatus({
    ...(params.serverName != null ? { serverName: params.serverName } : {}),
    ...(environmentId !== null ? { environmentId } : {}),
  });
  const statuses = (view === null ? listed : listed.map((s) => withinView(s, view))).sort(
    (a: ServerStatus, b: ServerStatus) =>
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (order.get(a.environmentId) ?? 0) - (order.get(b.environmentId) ?? 0),
  );

  const total = statuses.length;
  let start = 0;
  if (params.cursor != null) {
    if (!/^\d+$/.test(params.cursor)) throw invalidRequest(`invalid cursor: ${params.cursor}`);
    start = Number(params.cursor);
    if (start > total) throw invalidRequest(`cursor ${start} exceeds total MCP servers ${total}`);
  }
  const limit = params.limit == null ? total : Math.max(1, params.limit);
  const end = Math.min(total, start + limit);
  const detail = params.detail ?? 'full';
  return {
    // Without a thread there is no thread runtime: Codex reports `runtimeStatus: null`; the
    // probe's view is still in `startupStatus`.
    data: statuses.slice(start, end).map((s) => toWireStatus(s, detail, threadId !== null)),
    nextCursor: end < total ? String(end) : null,
  };
}

/** `s` as its thread's view shows it: the view's tools, under its names. */
function withinView(s: ServerStatus, view: ToolView): ServerStatus {
  const tools = s.tools.flatMap((t) => {
    const shown = view.findRaw(s.scope, t.name);
    return shown === undefined ? [] : [{ ...t, modelName: shown.name }];
  });
  const inView = view.selection.includesServer(s.scope);
  return {
    ...s,
    tools,
    resources: inView ? s.resources : [],
    resourceTemplates: inView ? s.resourceTemplates : [],
  };
}
