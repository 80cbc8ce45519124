/**
 * `resources/read` and `prompts/get` of one connection (connection.ts), through the SDK's client:
 * failures become `McpRequestError`s (requestErrors.ts), and with tracing on each request is a
 * CLIENT span whose context the server receives in the request `_meta` (telemetry/tracing.ts).
 * With tracing off the request is sent as before, without `_meta`.
 */

import type { Client } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import type { UpstreamSource } from '../telemetry/tracing.js';
import { activeTracer, traceUpstream } from '../telemetry/tracing.js';
import type { GetPromptResult, ReadResourceResult } from './mcpTypes.js';
import { translateRequestError } from './requestErrors.js';
import type { RequestLimits } from './timeouts.js';
import { requestOptions } from './timeouts.js';

/** The connection a request belongs to: its scope, revision and how it ended. */
export interface RequestHost extends UpstreamSource {
  readonly config: ServerConfig;
  readonly ended: boolean;
  closeReason(): string;
}

/** `resources/read` (never from a cache); rejects with `McpRequestError`. */
export function readResource(
  client: Client,
  host: RequestHost,
  uri: string,
  limits: RequestLimits,
): Promise<ReadResourceResult> {
  const tracer = activeTracer();
  if (tracer === null) return read(client, host, { uri }, limits);
  const send = (_meta: unknown) => read(client, host, { uri, _meta }, limits);
  return traceUpstream(tracer, host, 'resources/read', uri, undefined, send);
}

async function read(
  client: Client,
  host: RequestHost,
  params: { uri: string; _meta?: unknown },
  limits: RequestLimits,
): Promise<ReadResourceResult> {
  try {
    return await client.readResource(params as { uri: string }, {
      ...requestOptions(limits),
      cacheMode: 'bypass',
    });
  } catch (error) {
    throw translateRequestError(error, host);
  }
}

/** `prompts/get`; rejects with `McpRequestError`. */
export function getPrompt(
  client: Client,
  host: RequestHost,
  name: string,
  args: Record<string, string> | undefined,
  limits: RequestLimits,
): Promise<GetPromptResult> {
  const params = { name, ...(args !== undefined ? { arguments: args } : {}) };
  const tracer = activeTracer();
  if (tracer === null) return prompt(client, host, params, limits);
  const send = (_meta: unknown) => prompt(client, host, { ...params, _meta }, limits);
  return traceUpstream(tracer, host, 'prompts/get', name, undefined, send);
}

async function prompt(
  client: Client,
  host: RequestHost,
  params: { name: string; _meta?: unknown },
  limits: RequestLimits,
): Promise<GetPromptResult> {
  try {
    const sent = params as { name: string };
    return (await client.getPrompt(sent, requestOptions(limits))) as GetPromptResult;
  } catch (error) {
    throw translateRequestError(error, host);
  }
}
