/**
 * The app-server's SERVER spans (docs/observability.md, Traces): one per `mcpServer/*` request,
 * named `{method}` (`{method} {tool}` for a call). `mcpServer/tool/call` continues the trace of
 * the `traceparent`/`tracestate` in its `_meta` (SEP-414), and its handler runs with the span as
 * the active context, so the runtime's upstream CLIENT span is its child and the server receives
 * that span, not the client's, as its parent. With tracing off a request is dispatched as it
 * always was: one check. Spans carry names only, never arguments or results.
 */

import { activeTracer, contextFromMeta, traced } from '@mcprt/runtime';
import type { Attributes } from '@opentelemetry/api';
import { context, SpanKind, trace } from '@opentelemetry/api';

/** The MCP method an app-server method sends upstream. */
const MCP_METHOD: Readonly<Record<string, string>> = {
  'mcpServer/tool/call': 'tools/call',
  'mcpServer/resource/read': 'resources/read',
};

/** Whether `method` gets a span (tracing on, an `mcpServer/*` method). */
export function tracesMethod(method: string): boolean {
  return activeTracer() !== null && method.startsWith('mcpServer/');
}

/** `handle` the request in a SERVER span, ended with its outcome. */
export function dispatchTraced(
  method: string,
  params: unknown,
  handle: () => Promise<unknown>,
): Promise<unknown> {
  const tracer = activeTracer();
  if (tracer === null) return handle();
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<
    string,
    unknown
  >;
  const base = context.active();
  const parent = (method === 'mcpServer/tool/call' && contextFromMeta(p['_meta'], base)) || base;
  const attributes: Attributes = { 'rpc.method': method };
  const mcpMethod = MCP_METHOD[method];
  if (mcpMethod !== undefined) attributes['mcp.method.name'] = mcpMethod;
  if (typeof p['server'] === 'string') attributes['mcprt.server'] = p['server'];
  if (typeof p['environmentId'] === 'string') attributes['mcprt.environment'] = p['environmentId'];
  const tool = mcpMethod === 'tools/call' && typeof p['tool'] === 'string' ? p['tool'] : undefined;
  if (tool !== undefined) attributes['gen_ai.tool.name'] = tool;
  if (mcpMethod === 'resources/read' && typeof p['uri'] === 'string') {
    attributes['mcp.resource.uri'] = p['uri'];
  }
  const span = tracer.startSpan(
    tool === undefined ? method : `${method} ${tool}`,
    { kind: SpanKind.SERVER, attributes },
    parent,
  );
  let handled: Promise<unknown>;
  try {
    handled = context.with(trace.setSpan(parent, span), handle);
  } catch (error) {
    handled = Promise.reject(error);
  }
  // Ended by its outcome as the upstream span is: a tool error, or the failure's code.
  return traced(span, handled);
}
