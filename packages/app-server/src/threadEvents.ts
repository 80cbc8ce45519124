/**
 * Wiring of one thread's runtime events to its owner connection: startup status, tool-call
 * items (`item/started`, `item/mcpToolCall/progress`, `item/completed` — Codex's `mcpToolCall`
 * thread item, carrying `environmentId`), and elicitation relayed as the server→client request
 * `mcpServer/elicitation/request` (answered `decline` if the client fails to answer properly).
 * mcprt has no turns: a direct tool call is its own turn, so `turnId` is the item id.
 */

import type {
  ElicitationRequest,
  ElicitationResponse,
  Session,
  StartupStatusEvent,
  ToolCallCompleted,
  ToolCallStarted,
} from '@mcprt/runtime';

import type { McpAppFields } from './appUi.js';
import type { RpcPeer } from './rpcPeer.js';
import type { ToolCallEncoder } from './toolCallText.js';

export function toolCallItem(e: ToolCallStarted | ToolCallCompleted, app?: McpAppFields) {
  const done = 'status' in e;
  const result = done && e.result ? e.result : null;
  return {
    type: 'mcpToolCall' as const,
    id: e.id,
    server: e.server,
    tool: e.tool,
    status: !done
      ? ('inProgress' as const)
      : e.status === 'completed'
        ? ('completed' as const)
        : ('failed' as const),
    arguments: e.arguments,
    environmentId: e.environmentId,
    result: result
      ? {
          content: Array.isArray(result['content']) ? (result['content'] as unknown[]) : [],
          ...(result['structuredContent'] !== undefined
            ? { structuredContent: result['structuredContent'] }
            : {}),
          ...(result['_meta'] !== undefined ? { _meta: result['_meta'] } : {}),
        }
      : null,
    error: done && e.error !== null ? { message: e.error } : null,
    durationMs: done ? e.durationMs : null,
    ...app,
  };
}

export function startupNotification(e: StartupStatusEvent) {
  return {
    threadId: e.threadId,
    name: e.name,
    environmentId: e.environmentId,
    status: e.status,
    error: e.error,
    failureReason:
      e.failureKind === 'authentication' ? ('reauthenticationRequired' as const) : null,
  };
}

/**
 * Forward tool-call events of `session` to `peer`. `item/started` and `item/completed` are
 * written by `encoder` (the same text as `toolCallItem` in their params gives, ADR 0022).
 */
export function forwardToolCalls(session: Session, peer: RpcPeer, encoder: ToolCallEncoder): void {
  // `item/started` may wait a millisecond for the call's completion, to share its write (ADR 0019).
  session.on('toolCallStarted', (e) => peer.notifySoonEncoded('item/started', encoder.started(e)));
  session.on('toolCallProgress', (e) =>
    peer.notify('item/mcpToolCall/progress', {
      threadId: e.threadId,
      turnId: e.id,
      itemId: e.id,
      message: e.message ?? (e.total !== null ? `${e.progress}/${e.total}` : String(e.progress)),
      progress: e.progress,
      total: e.total,
    }),
  );
  session.on('toolCallCompleted', (e) =>
    peer.notifyEncoded('item/completed', encoder.completed(e)),
  );
}

/** The session's elicitation handler: ask the owner connection. */
export function elicitThroughPeer(peer: RpcPeer) {
  return async (request: ElicitationRequest): Promise<ElicitationResponse> => {
    const params = {
      threadId: request.threadId,
      turnId: null,
      serverName: request.serverName,
      environmentId: request.environmentId,
      mode: request.mode,
      _meta: request._meta ?? null,
      message: request.message,
      ...(request.mode === 'form'
        ? { requestedSchema: request.requestedSchema ?? { type: 'object', properties: {} } }
        : { url: request.url ?? '', elicitationId: request.elicitationId ?? '' }),
    };
    const { id, response } = peer.requestWithId('mcpServer/elicitation/request', params);
    try {
      return normalizeReply(await response);
    } catch {
      return { action: 'decline' };
    } finally {
      peer.notify('serverRequest/resolved', { threadId: request.threadId, requestId: id });
    }
  };
}

function normalizeReply(value: unknown): ElicitationResponse {
  const v = (value ?? {}) as { action?: unknown; content?: unknown; _meta?: unknown };
  const action = v.action === 'accept' || v.action === 'cancel' ? v.action : 'decline';
  const content =
    v.content !== null && typeof v.content === 'object' && !Array.isArray(v.content)
      ? (v.content as Record<string, unknown>)
      : null;
  const meta =
    v._meta !== null && typeof v._meta === 'object' && !Array.isArray(v._meta)
      ? (v._meta as Record<string, unknown>)
      : null;
  return { action, content, _meta: meta };
}
