/**
 * The message envelope. Codex's app-server speaks JSON-RPC 2.0 semantics without the
 * `"jsonrpc"` member; mcprt accepts messages with or without it and answers in the style the
 * peer used. Server notifications carry `emittedAtMs` next to `method`/`params` (Codex's).
 */

import type { JsonRpcErrorObject } from './errors.js';

export type RequestId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc?: '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params?: unknown;
}

export interface JsonRpcNotification {
  readonly jsonrpc?: '2.0';
  readonly method: string;
  readonly params?: unknown;
  readonly emittedAtMs?: number;
}

export interface JsonRpcSuccess {
  readonly jsonrpc?: '2.0';
  readonly id: RequestId;
  readonly result: unknown;
}

export interface JsonRpcFailure {
  readonly jsonrpc?: '2.0';
  readonly id: RequestId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcSuccess | JsonRpcFailure;

export type ClassifiedMessage =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'response'; readonly message: JsonRpcSuccess | JsonRpcFailure }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly reason: string };

const isId = (v: unknown): v is RequestId =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Sort a parsed JSON value into request / notification / response, or say why it is none. */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', id: null, reason: 'Invalid request: expected a JSON object' };
  }
  const m = value as Record<string, unknown>;
  const id = isId(m['id']) ? m['id'] : null;
  if (m['jsonrpc'] !== undefined && m['jsonrpc'] !== '2.0') {
    return { kind: 'invalid', id, reason: 'Invalid request: jsonrpc must be "2.0" when present' };
  }
  if (typeof m['method'] === 'string') {
    if (m['id'] === undefined)
      return { kind: 'notification', message: m as unknown as JsonRpcNotification };
    if (id === null)
      return {
        kind: 'invalid',
        id: null,
        reason: 'Invalid request: id must be a string or a number',
      };
    return { kind: 'request', message: m as unknown as JsonRpcRequest };
  }
  if (m['method'] !== undefined)
    return { kind: 'invalid', id, reason: 'Invalid request: method must be a string' };
  if ('result' in m || 'error' in m) {
    return { kind: 'response', message: m as unknown as JsonRpcSuccess | JsonRpcFailure };
  }
  return { kind: 'invalid', id, reason: 'Invalid request: missing field `method`' };
}
