/**
 * One `tools/call` as the gateway runs it, shared by the SDK server's handler (serverFactory.ts)
 * and the stdio fast path (fastPath.ts), so both route, split `_meta`, run and fail alike: the
 * tool is looked up by its gateway name (unknown: InvalidParams `Unknown tool: X`), the client's
 * `_meta` is split into what is forwarded and the call's sandbox authority (callMeta.ts), and a
 * failed call (server gone, timeout, disabled tool) is a tool error the model sees.
 */

import type { Mutable } from '@mcprt/base';
import type { CallCancel, InventoryTool, RegistrationScope, ToolCallRequest } from '@mcprt/runtime';
import { scopeLabel, ToolNotInViewError } from '@mcprt/runtime';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';

import { splitCallMeta } from './callMeta.js';
import { callerLabel } from './caller.js';
import type { GatewayCore } from './serverFactory.js';
import type { ProgressUpdate } from './operations.js';

export interface ToolCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
}

export type Run = (
  cancel: CallCancel,
  onProgress: (update: ProgressUpdate) => void,
  /** Tasks (tasks.ts): what the client takes, and what the gateway is told of the task. */
  task?: ToolCallRequest['task'],
) => Promise<unknown>;

/** What an operation subject is called for a tool (a resumed round must name the same). */
export function toolSubject(name: string): string {
  return `tools/call ${name}`;
}

/** Resolve the tool and build the runtime call (throws InvalidParams for an unknown tool). */
export async function startToolCall(
  core: GatewayCore,
  params: ToolCallParams,
  meta: unknown,
): Promise<{ scope: RegistrationScope; run: Run }> {
  const entry = await core.catalog.findTool(params.name);
  if (entry === undefined) throw unfoundTool(core, params);
  return { scope: entry.scope, run: toolRun(core, entry, params, meta) };
}

/**
 * The error for a name the client's catalog does not hold: `Unknown tool: X`; the view's refusal
 * when it names a tool the client's view leaves out; or — for a caller whose policy narrows the
 * environments — the policy's refusal when it names a tool of another environment (which says
 * nothing of where that tool is). Refusals are recorded in the history as refused.
 */
export function unfoundTool(core: GatewayCore, params: ToolCallParams): ProtocolError {
  const { view, narrowed, policy } = core.client.access;
  if (narrowed) {
    const elsewhere = core.session.toolView(view).find(params.name);
    if (elsewhere !== undefined) {
      const message = `tool \`${params.name}\` is not available to ${callerLabel(core.client.caller)} (policy \`${policy ?? '-'}\`)`;
      recordRefusal(core, elsewhere.entry, params, message);
      return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
    }
  }
  const outside = view === null ? undefined : core.catalog.view().outside(params.name);
  if (view === null || outside === undefined) return unknownTool(params.name);
  const error = new ToolNotInViewError(outside.tool.name, scopeLabel(outside.scope), view);
  recordRefusal(core, outside, params, error.message);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
}

function recordRefusal(
  core: GatewayCore,
  target: { readonly scope: RegistrationScope; readonly tool: { readonly name: string } },
  params: ToolCallParams,
  message: string,
): void {
  const identity = core.client.identity;
  core.client.metrics.refused(target.scope);
  core.session.recordRefusedCall({
    server: target.scope.name,
    environmentId: target.scope.environmentId,
    tool: target.tool.name,
    ...(params.arguments !== undefined ? { arguments: params.arguments } : {}),
    view: core.client.access.view,
    error: message,
    ...(identity !== undefined ? { caller: identity } : {}),
  });
}

export function unknownTool(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
}

/** The runtime call of a resolved tool, the client's `_meta` split under the sandbox contract. */
export function toolRun(
  core: GatewayCore,
  entry: InventoryTool,
  params: ToolCallParams,
  meta: unknown,
): Run {
  const { forward, authority } = splitCallMeta(meta);
  const { identity } = core.client;
  // The session holds calls to its own view; with caller policies the client's view is recorded.
  const view = core.session.view === null ? core.client.access.view : null;
  return (cancel, onProgress, task) => {
    const request: Mutable<ToolCallRequest> = {
      server: entry.scope.name,
      environmentId: entry.scope.environmentId,
      tool: entry.tool.name,
      // The operation's cancellation as it stands: no AbortSignal per call (ADR 0023).
      signal: cancel,
      onProgress,
    };
    if (params.arguments !== undefined) request.arguments = params.arguments;
    if (forward !== undefined) request.meta = forward;
    if (authority !== undefined) request.sandboxAuthority = authority;
    if (identity !== undefined) request.caller = identity;
    if (view !== null) request.view = view;
    if (task !== undefined) request.task = task;
    const call = core.session.callTool(request);
    core.client.metrics.track(entry.scope, call, cancel);
    return call;
  };
}

/** A failure of the call as the tool error the model sees. */
export function toolFailure(error: unknown): CallToolResult {
  return { content: [{ type: 'text', text: errorText(error) }], isError: true };
}

/** `notifications/progress` params for the client's token. */
export function progressParams(
  token: string | number,
  update: ProgressUpdate,
): Record<string, unknown> {
  return {
    progressToken: token,
    progress: update.progress,
    ...(update.total !== undefined ? { total: update.total } : {}),
    ...(update.message !== undefined ? { message: update.message } : {}),
  };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
