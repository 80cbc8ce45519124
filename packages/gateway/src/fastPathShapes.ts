/**
 * The messages of the 2025 stdio fast path (fastPath.ts): which `tools/call` requests it takes
 * (`plainCall`: exactly those the SDK would hand to its handler unchanged), which results it
 * writes itself (`looksLikeToolResult`: those the SDK's validation would pass), and the lines it
 * writes — each as the SDK's `serializeMessage` would write the same message, or, for results,
 * with `jsonrpc` and `id` first (the SDK writes `result` first), which is how tests tell them
 * apart.
 */

import { ProtocolErrorCode } from '@modelcontextprotocol/server';

import type { ProgressUpdate } from './operations.js';
import { progressParams } from './toolCall.js';
import type { ToolCallParams } from './toolCall.js';

type Id = string | number;
type Json = Record<string, unknown>;

/**
 * The `@modelcontextprotocol/server` version whose acceptance rules the fast paths copy (here:
 * `plainCall`, `looksLikeToolResult`, `errorBody`; in fastPathModern.ts: the envelope keys and the
 * 2026 result encoding); test/repository/sdkVersionPin.test.ts fails on any other installed
 * version, naming what to re-check.
 */
export const WRITTEN_AGAINST_SDK = '2.4.0';

/** Keys of `_meta` the SDK reads itself (the 2026-07-28 envelope, related-task). */
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';
/** The SDK answers -32002 as -32602 on the 2025 wire. */
const RESOURCE_NOT_FOUND = -32002;

/** The response line, as `serializeMessage` would write `{jsonrpc, id, result}`. */
export function resultLine(id: Id, result: Json): string {
  return (
    '{"jsonrpc":"2.0","id":' + JSON.stringify(id) + ',"result":' + JSON.stringify(result) + '}\n'
  );
}

export function progressLine(token: Id, update: ProgressUpdate): string {
  const message = {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: progressParams(token, update),
  };
  return JSON.stringify(message) + '\n';
}

/** The JSON-RPC error the SDK's request handling sends for a thrown error. */
export function errorBody(error: unknown): Json {
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

/** The parts of a `tools/call` request with nothing but `jsonrpc`, `id`, `method`, `params`. */
export interface CallParts {
  readonly id: Id;
  readonly name: string;
  readonly args: Json | undefined;
  /** `params._meta`: undefined or anything (each fast path checks it its own way). */
  readonly meta: unknown;
}

/**
 * The checks both fast paths (2025 `plainCall`, 2026 `modernCall`) make of a `tools/call`: a
 * string or integer id, no key besides `jsonrpc`, `id`, `method`, `params`, params with only
 * `name` (a string), `arguments` (an object, optional) and `_meta`. Undefined otherwise.
 */
export function callParts(message: Json): CallParts | undefined {
  const id = message['id'];
  if (message['jsonrpc'] !== '2.0' || !isId(id)) return undefined;
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
  if (typeof name !== 'string') return undefined;
  if (args !== undefined && !isPlain(args)) return undefined;
  return { id, name, args, meta: params['_meta'] };
}

/**
 * A `tools/call` the SDK would accept as it stands and hand to the handler unchanged: a 2025
 * request with a string or integer id, a string name, object arguments, an object `_meta`
 * without reserved keys and with a valid progress token, and nothing else. Anything else goes to
 * the SDK, which answers it as before.
 */
export function plainCall(
  message: Json,
): { id: Id; params: ToolCallParams; meta: Json | undefined } | undefined {
  const parts = callParts(message);
  if (parts === undefined) return undefined;
  const meta = parts.meta;
  if (meta !== undefined) {
    if (!isPlain(meta)) return undefined;
    for (const key in meta) if (key.startsWith(RESERVED_META_PREFIX)) return undefined;
    const token = meta['progressToken'];
    if (token !== undefined && !isId(token)) return undefined;
  }
  // Written out, not spread (one object per call).
  const call: { name: string; arguments?: Record<string, unknown> } = { name: parts.name };
  if (parts.args !== undefined) call.arguments = parts.args;
  return { id: parts.id, params: call, meta };
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
export function looksLikeToolResult(value: unknown): value is Json {
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
export function withContent(result: Json): Json {
  return result['content'] === undefined ? { ...result, content: [] } : result;
}

export function isPlain(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isId(value: unknown): value is Id {
  return typeof value === 'string' || Number.isSafeInteger(value);
}
