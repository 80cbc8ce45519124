/**
 * The `tools/call` fast path of a stdio connection (docs/adr/0020): once a 2025 connection has
 * been initialized, a plain `tools/call` line is served here, from the parsed JSON, without the
 * SDK server's zod checks, context construction and result validation — through the same
 * operation machinery (operations.ts, toolCall.ts), so routing, `_meta` splitting, history,
 * progress, cancellation and timeouts are the SDK handler's. Everything else goes to the SDK:
 * every other message, a 2026-07-28 connection's calls (their per-request envelope is the SDK's
 * to check), a `tools/call` with anything unusual in it (the SDK answers it as it always did),
 * and the parts of a call the SDK does (handover.ts): an elicitation (the legacy shim sends the
 * real `elicitation/create`) and a result that does not look like a valid tool result.
 */

import type { ElicitationRequest } from '@mcprt/runtime';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';

import { modesOf } from './elicitation.js';
import type { Operation } from './operations.js';
import type { GatewayCore } from './serverFactory.js';
import { progressParams, startToolCall, toolFailure, toolSubject } from './toolCall.js';
import type { ToolCallParams } from './toolCall.js';

type Id = string | number;
type Json = Record<string, unknown>;

/** Where the fast path writes (responses, progress) and re-injects handed-over requests. */
export interface FastPathWire {
  send(message: JSONRPCMessage): Promise<void>;
  inject(message: unknown): void;
  readonly isOpen: boolean;
}

/** Keys of `_meta` the SDK reads itself (the 2026-07-28 envelope, related-task). */
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';
/** The SDK answers -32002 as -32602 on the 2025 wire. */
const RESOURCE_NOT_FOUND = -32002;

export class FastToolCalls {
  /** The connection's 2025 server instance, once its `initialize` has been answered. */
  private server: Server | undefined;
  private pendingLegacy: Server | undefined;
  private initializeId: Id | undefined;
  private readonly inflight = new Map<Id, AbortController>();
  private closed = false;

  constructor(
    private readonly core: GatewayCore,
    private readonly wire: FastPathWire,
  ) {}

  /** The SDK's entry created the connection's server instance (a probe may be replaced). */
  instance(era: 'legacy' | 'modern', server: Server): Server {
    this.server = undefined;
    this.pendingLegacy = era === 'legacy' ? server : undefined;
    return server;
  }

  /** Every message written: the answer to `initialize` opens the fast path. */
  sent(message: JSONRPCMessage): void {
    if (this.initializeId === undefined || !('id' in message) || message.id !== this.initializeId) {
      return;
    }
    this.initializeId = undefined;
    if ('result' in message && this.pendingLegacy !== undefined) this.server = this.pendingLegacy;
  }

  /** Offered every parsed line; `true` when it is served here. */
  take(message: unknown): boolean {
    if (!isPlain(message)) return false;
    const method = message['method'];
    if (method === 'notifications/cancelled') return this.cancel(message['params']);
    if (method === 'initialize' && isId(message['id'])) {
      this.initializeId = message['id'];
      return false;
    }
    if (method !== 'tools/call' || this.server === undefined || this.closed) return false;
    const call = plainCall(message);
    if (call === undefined || this.inflight.has(call.id)) return false;
    void this.serve(this.server, call.id, call.params, call.meta, message);
    return true;
  }

  /** The connection closed: calls in flight are aborted, like the SDK aborts its handlers. */
  close(): void {
    this.closed = true;
    const error = new Error('Connection closed');
    for (const controller of this.inflight.values()) controller.abort(error);
    this.inflight.clear();
  }

  private cancel(params: unknown): boolean {
    if (!isPlain(params) || !isId(params['requestId'])) return false;
    const controller = this.inflight.get(params['requestId']);
    if (controller === undefined) return false;
    this.inflight.delete(params['requestId']);
    controller.abort(params['reason']);
    return true;
  }

  private async serve(
    server: Server,
    id: Id,
    params: ToolCallParams,
    meta: Json | undefined,
    request: Json,
  ): Promise<void> {
    const controller = new AbortController();
    this.inflight.set(id, controller);
    const subject = toolSubject(params.name);
    try {
      this.core.start();
      const { scope, run } = await startToolCall(this.core, params, meta);
      const operation = this.core.operations.start(scope, subject, run);
      const token = meta?.['progressToken'] as Id | undefined;
      const outcome = await operation.round({
        signal: controller.signal,
        spansRounds: true,
        modes: modesOf(server.getClientCapabilities()),
        ...(token !== undefined ? { progress: (u) => this.write(progress(token, u)) } : {}),
      });
      // A cancelled request gets no answer (whatever the call did), as from the SDK.
      if (controller.signal.aborted) return;
      switch (outcome.kind) {
        case 'done':
          if (looksLikeToolResult(outcome.value)) {
            this.write({ jsonrpc: '2.0', id, result: withContent(outcome.value) });
          } else {
            this.handOver(
              id,
              request,
              this.core.handovers.put({ kind: 'result', subject, value: outcome.value }),
            );
          }
          return;
        case 'failed':
          this.write({ jsonrpc: '2.0', id, result: toolFailure(outcome.error) as Json });
          return;
        case 'input':
          if (!this.wire.isOpen) {
            // Nobody left to ask: the parked call is cancelled, not left to its input timeout.
            operation.cancel(new Error('Connection closed'));
            return;
          }
          this.handOver(
            id,
            request,
            this.core.handovers.put({
              kind: 'input',
              subject,
              operation: operation as Operation<unknown>,
              requests: outcome.requests as ReadonlyMap<string, ElicitationRequest>,
            }),
          );
          return;
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      this.write({ jsonrpc: '2.0', id, error: errorBody(error) });
    } finally {
      if (this.inflight.get(id) === controller) this.inflight.delete(id);
    }
  }

  /** The SDK finishes the call: the client's request again, naming the handover. */
  private handOver(id: Id, request: Json, token: string): void {
    // From here on the request is the SDK's: a cancellation goes there.
    this.inflight.delete(id);
    if (!this.wire.isOpen) {
      this.core.handovers.drop(token);
      return;
    }
    const params = request['params'] as Json;
    this.wire.inject({ ...request, params: { ...params, requestState: token } });
  }

  private write(message: Json): void {
    if (!this.wire.isOpen) return;
    this.wire.send(message as JSONRPCMessage).catch(() => undefined);
  }
}

function progress(token: Id, update: Parameters<typeof progressParams>[1]): Json {
  return {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: progressParams(token, update),
  };
}

/** The JSON-RPC error the SDK's request handling sends for a thrown error. */
function errorBody(error: unknown): Json {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Json;
  const thrown = Number.isSafeInteger(e['code'])
    ? (e['code'] as number)
    : ProtocolErrorCode.InternalError;
  const message = typeof e['message'] === 'string' ? e['message'] : 'Internal error';
  return {
    code: thrown === RESOURCE_NOT_FOUND ? ProtocolErrorCode.InvalidParams : thrown,
    message,
    ...(e['data'] !== undefined ? { data: e['data'] } : {}),
  };
}

/**
 * A `tools/call` the SDK would accept as it stands and hand to the handler unchanged: a 2025
 * request with a string or integer id, a string name, object arguments, an object `_meta`
 * without reserved keys and with a valid progress token, and nothing else. Anything else goes to
 * the SDK, which answers it as before.
 */
function plainCall(
  message: Json,
): { id: Id; params: ToolCallParams; meta: Json | undefined } | undefined {
  if (message['jsonrpc'] !== '2.0' || !isId(message['id'])) return undefined;
  for (const key in message) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return undefined;
  }
  const params = message['params'];
  if (!isPlain(params)) return undefined;
  for (const key in params) {
    if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
  }
  const name = params['name'];
  const args = params['arguments'];
  const meta = params['_meta'];
  if (typeof name !== 'string') return undefined;
  if (args !== undefined && !isPlain(args)) return undefined;
  if (meta !== undefined) {
    if (!isPlain(meta)) return undefined;
    for (const key in meta) if (key.startsWith(RESERVED_META_PREFIX)) return undefined;
    const token = meta['progressToken'];
    if (token !== undefined && !isId(token)) return undefined;
  }
  return {
    id: message['id'],
    params: { name, ...(args !== undefined ? { arguments: args } : {}) },
    meta,
  };
}

const CONTENT_FIELDS: Record<string, readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
};

/**
 * A tool result the SDK's validation would pass (the common shapes, checked cheaply); anything
 * else is handed to the SDK, which validates it and answers as it always did.
 */
function looksLikeToolResult(value: unknown): value is Json {
  if (!isPlain(value)) return false;
  if ('task' in value || 'inputRequests' in value || 'requestState' in value) return false;
  const isError = value['isError'];
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  for (const key of ['structuredContent', '_meta']) {
    if (value[key] !== undefined && !isPlain(value[key])) return false;
  }
  const content = value['content'];
  if (content === undefined) return true;
  if (!Array.isArray(content)) return false;
  for (const block of content) {
    if (!isPlain(block) || typeof block['type'] !== 'string') return false;
    const fields = CONTENT_FIELDS[block['type']];
    if (fields === undefined) return false; // e.g. embedded resources: the SDK checks those
    for (const field of fields) if (typeof block[field] !== 'string') return false;
    if (block['_meta'] !== undefined && !isPlain(block['_meta'])) return false;
    if (block['annotations'] !== undefined && !isPlain(block['annotations'])) return false;
  }
  return true;
}

/** The SDK's normalization: a result without `content` gets an empty one. */
function withContent(result: Json): Json {
  return result['content'] === undefined ? { ...result, content: [] } : result;
}

function isPlain(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is Id {
  return typeof value === 'string' || Number.isSafeInteger(value);
}
