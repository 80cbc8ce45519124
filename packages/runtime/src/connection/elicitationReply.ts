/**
 * Checking a host's answer to a form elicitation before it reaches the MCP server: defaults from
 * `requestedSchema` are applied to missing fields (SEP-1034), then the content is validated
 * against the schema with the SDK's JSON Schema validator. An invalid answer never reaches the
 * server: the server gets a JSON-RPC error naming what was wrong.
 */

import type { JsonSchemaType } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';

import { schemaValidators } from './schemaValidators.js';

/** Fill missing top-level fields from the schema's `default`s (returns a new object). */
export function applyElicitationDefaults(
  schema: { properties?: Record<string, unknown> } | undefined,
  content: Record<string, unknown>,
): Record<string, unknown> {
  // Field names are the server's: entries, never `out[key] = …` (a `__proto__` field is data).
  const entries = Object.entries(content);
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    if (Object.hasOwn(content, key) && content[key] !== undefined) continue;
    const value = (prop as { default?: unknown } | null)?.default;
    if (value !== undefined) entries.push([key, structuredClone(value)]);
  }
  return Object.fromEntries(entries);
}

/** Defaults applied, then validated; throws an InvalidParams ProtocolError on a mismatch. */
export function checkFormReply(
  requestedSchema: unknown,
  content: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const schema = (requestedSchema ?? { type: 'object', properties: {} }) as JsonSchemaType & {
    properties?: Record<string, unknown>;
  };
  const filled = applyElicitationDefaults(schema, content ?? {});
  const result = schemaValidators.getValidator<Record<string, unknown>>(schema)(filled);
  if (!result.valid) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `elicitation reply does not match the requested schema: ${result.errorMessage ?? 'invalid content'}`,
    );
  }
  return filled;
}
