/**
 * The gateway's SERVER spans (docs/observability.md, Traces): one per MCP request a client sends
 * `mcprt serve` (`tools/call`, `resources/read`, `prompts/get` and the lists), continuing the
 * client's trace — the request `_meta`'s `traceparent`/`tracestate` (SEP-414), else the HTTP
 * request's `traceparent`/`tracestate` headers. The handler runs with the span as the active
 * context, so the runtime's upstream CLIENT span (an operation's call starts within the request
 * that started it) is its child. With tracing off a handler runs as it always did: one check.
 * Spans carry names and the protocol revision, never arguments or results.
 */

import { activeTracer, contextFromHeaders, contextFromMeta, traced } from '@mcprt/runtime';
import type { RegistrationScope } from '@mcprt/runtime';
import type { Attributes } from '@opentelemetry/api';
import { context, SpanKind, trace } from '@opentelemetry/api';

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

const TARGET_ATTRIBUTE: Readonly<Record<string, string>> = {
  'tools/call': 'gen_ai.tool.name',
  'resources/read': 'mcp.resource.uri',
  'prompts/get': 'gen_ai.prompt.name',
};

/** What a handler's context tells of its request (the SDK's `ServerContext`, in part). */
export interface TracedRequest {
  readonly mcpReq: {
    readonly method: string;
    readonly _meta?: unknown;
    readonly envelope?: Readonly<Record<string, unknown>> | undefined;
  };
  readonly http?: { readonly req?: { readonly headers: Headers } | undefined } | undefined;
}

/**
 * Run `handle` for a request in a SERVER span named `{method} {target}` (tracing on), ended
 * with the handler's outcome: a tool result with `isError` is a `tool_error`, a thrown error
 * its JSON-RPC code. `protocolVersion`: the revision the client negotiated (2025 connections;
 * a 2026-07-28 request names its own in its envelope).
 */
export function serveTraced<T>(
  ctx: TracedRequest,
  target: string | undefined,
  protocolVersion: () => string | undefined,
  handle: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  if (tracer === null) return handle();
  const { method } = ctx.mcpReq;
  const base = context.active();
  const headers = ctx.http?.req?.headers;
  const parent =
    contextFromMeta(ctx.mcpReq._meta, base) ??
    (headers === undefined ? undefined : contextFromHeaders((name) => headers.get(name), base)) ??
    base;
  const attributes: Attributes = { 'mcp.method.name': method };
  const key = TARGET_ATTRIBUTE[method];
  if (key !== undefined && target !== undefined) attributes[key] = target;
  const envelopeVersion = ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY];
  const version = typeof envelopeVersion === 'string' ? envelopeVersion : protocolVersion();
  if (version !== undefined) attributes['mcp.protocol.version'] = version;
  const span = tracer.startSpan(
    target === undefined || key === undefined ? method : `${method} ${target}`,
    { kind: SpanKind.SERVER, attributes },
    parent,
  );
  let handled: Promise<T>;
  try {
    handled = context.with(trace.setSpan(parent, span), handle);
  } catch (error) {
    handled = Promise.reject(error);
  }
  // Ended by its outcome as the upstream span is: a tool error, or the failure's code.
  return traced(span, handled);
}

/** The registration a request was routed to, on the request's span (tracing on only). */
export function noteScope(scope: RegistrationScope): void {
  if (activeTracer() === null) return;
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  span.setAttribute('mcprt.server', scope.name);
  if (scope.environmentId !== null) span.setAttribute('mcprt.environment', scope.environmentId);
}

/** `serveTraced` for the handlers of one server instance (its negotiated revision). */
export function tracedBy(protocolVersion: () => string | undefined) {
  return <T>(ctx: TracedRequest, target: string | undefined, handle: () => Promise<T>) =>
    serveTraced(ctx, target, protocolVersion, handle);
}
