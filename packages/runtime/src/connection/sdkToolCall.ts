/**
 * A `tools/call` through the MCP SDK's client — the path of every connection the fast path
 * (fastToolCalls.ts, ADR 0021) does not serve: HTTP (where 2026-07-28 also mirrors arguments into
 * `Mcp-Param-*` headers), a connection not yet ready. Also where a call's params and the SDK's
 * request options for it are put together, for either path.
 */

import type { Client } from '@modelcontextprotocol/client';

import type { CallSignal } from './callCancel.js';
import { abortSignalOf } from './callCancel.js';
import type { CallToolResult, ProgressUpdate } from './mcpTypes.js';
import type { SdkRequestOptions } from './sdkInternals.js';

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

export interface CallLimits {
  readonly timeoutMs: number;
  readonly signal?: CallSignal | undefined;
  readonly onProgress?: ((p: ProgressUpdate) => void) | undefined;
}

/** The SDK's options for a call: `timeoutMs` as both the request and the total timeout. */
export function sdkCallOptions(limits: CallLimits): SdkRequestOptions {
  const { timeoutMs } = limits;
  return {
    timeout: timeoutMs,
    maxTotalTimeout: timeoutMs,
    ...(limits.signal ? { signal: abortSignalOf(limits.signal) } : {}),
    ...(limits.onProgress
      ? {
          onprogress: limits.onProgress as (progress: unknown) => void,
          resetTimeoutOnProgress: false,
        }
      : {}),
  };
}

/** The SDK's call (no reset of the timeout on progress). */
export async function sdkToolCall(
  client: Client,
  params: ToolCallParams,
  limits: CallLimits,
): Promise<CallToolResult> {
  return (await client.callTool(
    params as Parameters<Client['callTool']>[0],
    sdkCallOptions(limits) as Parameters<Client['callTool']>[1],
  )) as CallToolResult;
}
