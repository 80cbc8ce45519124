/**
 * A `tools/call` through the MCP SDK's client — the path of every connection the fast path
 * (fastToolCalls.ts, ADR 0021) does not serve: HTTP, the 2026-07-28 revision (its per-request
 * `_meta` envelope, input-required rounds, `Mcp-Param-*` header mirroring), a connection not yet
 * ready. Also where a call's params are put together for either path.
 */

import type { Client } from '@modelcontextprotocol/client';

import type { CallToolResult, ProgressUpdate } from './mcpTypes.js';

export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  /** Request `_meta`, sent as given. */
  _meta?: unknown;
}

/** The params of a call: `arguments` and `_meta` only when given. */
export function toolCallParams(
  name: string,
  args: Record<string, unknown> | undefined,
  meta: unknown,
): ToolCallParams {
  const params: ToolCallParams = { name };
  if (args !== undefined) params.arguments = args;
  if (meta !== undefined) params._meta = meta;
  return params;
}

/** The SDK's call: `timeoutMs` as both the request and the total timeout, no reset on progress. */
export async function sdkToolCall(
  client: Client,
  params: ToolCallParams,
  options: {
    readonly timeoutMs: number;
    readonly signal?: AbortSignal | undefined;
    readonly onProgress?: ((p: ProgressUpdate) => void) | undefined;
  },
): Promise<CallToolResult> {
  const { timeoutMs } = options;
  return (await client.callTool(params as Parameters<Client['callTool']>[0], {
    timeout: timeoutMs,
    maxTotalTimeout: timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress
      ? { onprogress: options.onProgress, resetTimeoutOnProgress: false }
      : {}),
  })) as CallToolResult;
}
