/**
 * The shape check of a `tools/call` result on the fast path (ADR 0021), the 2025-11-25 wire rules
 * the SDK's result schema enforces, written as plain checks so a result costs a few property
 * reads instead of a schema parse: a `resultType` member is dropped and a result without
 * `content` gains `content: []` (unless it carries another result family's keys), as the SDK's
 * 2025 codec does; then `content` must be an array of known blocks with their required fields,
 * `structuredContent` and `_meta` objects, `isError` a boolean. A result that fails is described
 * (path and rule) for the caller's "Invalid result" error. Blocks are returned as sent.
 */

import type { CallToolResult } from './mcpTypes.js';

type Shape = { ok: true; result: CallToolResult } | { ok: false; reason: string };

const FOREIGN_FAMILY_KEYS = ['task', 'inputRequests', 'requestState'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Base64 as the SDK's schema accepts it: whatever `atob` decodes. */
function isBase64(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    atob(value);
    return true;
  } catch {
    return false;
  }
}

const str = (block: Record<string, unknown>, key: string, at: string): string | null =>
  typeof block[key] === 'string' ? null : `${at}.${key}: expected a string`;

/** What is wrong with one content block (null: nothing). */
function blockProblem(block: unknown, at: string): string | null {
  if (!isObject(block)) return `${at}: expected an object`;
  if (block['_meta'] !== undefined && !isObject(block['_meta'])) {
    return `${at}._meta: expected an object`;
  }
  switch (block['type']) {
    case 'text':
      return str(block, 'text', at);
    case 'image':
    case 'audio': {
      if (!isBase64(block['data'])) return `${at}.data: expected base64 data`;
      return str(block, 'mimeType', at);
    }
    case 'resource_link':
      return str(block, 'uri', at) ?? str(block, 'name', at);
    case 'resource': {
      const resource = block['resource'];
      if (!isObject(resource)) return `${at}.resource: expected an object`;
      const problem = str(resource, 'uri', `${at}.resource`);
      if (problem !== null) return problem;
      if (typeof resource['text'] === 'string' || isBase64(resource['blob'])) return null;
      return `${at}.resource: expected a text or base64 blob member`;
    }
    default:
      return `${at}.type: expected one of text, image, audio, resource_link, resource`;
  }
}

/** Check and normalise a raw `tools/call` result. */
export function toolResultShape(raw: unknown): Shape {
  if (!isObject(raw)) return { ok: false, reason: 'expected an object' };
  let value = raw;
  if ('resultType' in value) {
    value = { ...value };
    delete value['resultType'];
  }
  if (value['content'] === undefined && !FOREIGN_FAMILY_KEYS.some((key) => key in value)) {
    value = { ...value, content: [] };
  }
  const content = value['content'];
  if (!Array.isArray(content)) return { ok: false, reason: 'content: expected an array' };
  for (let i = 0; i < content.length; i++) {
    const problem = blockProblem(content[i], `content[${i}]`);
    if (problem !== null) return { ok: false, reason: problem };
  }
  if (value['structuredContent'] !== undefined && !isObject(value['structuredContent'])) {
    return { ok: false, reason: 'structuredContent: expected an object' };
  }
  if (value['isError'] !== undefined && typeof value['isError'] !== 'boolean') {
    return { ok: false, reason: 'isError: expected a boolean' };
  }
  if (value['_meta'] !== undefined && !isObject(value['_meta'])) {
    return { ok: false, reason: '_meta: expected an object' };
  }
  return { ok: true, result: value as unknown as CallToolResult };
}
