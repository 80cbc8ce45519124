/**
 * Tracing state of the process and the upstream CLIENT span (docs/observability.md, Traces).
 * The tracer is module state set once by the host (`mcprt serve`, `mcprt app-server`) when the
 * OTEL_* environment turns tracing on; null otherwise, and then the call path pays one boolean
 * check: no span, no context lookup, `_meta` forwarded exactly as given.
 *
 * With tracing on, every request the runtime sends a server for `tools/call`, `resources/read`
 * and `prompts/get` is a CLIENT span, a child of the active context (the gateway's or
 * app-server's SERVER span, carried by the context manager the host registered), and the server
 * receives that span as its parent in the request `_meta` (traceContext.ts). Spans carry the MCP
 * semantic-convention attributes and mcprt's own (`mcprt.server`, `mcprt.environment`); never an
 * argument, a result or a secret.
 */

import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';

import { metaWithTraceContext } from './traceContext.js';

let tracer: Tracer | null = null;

/** Turn tracing on with `next` (null: off). The host calls it once, before serving. */
export function enableTracing(next: Tracer | null): void {
  tracer = next;
}

export function tracingEnabled(): boolean {
  return tracer !== null;
}

/** The tracer, when tracing is on. */
export function activeTracer(): Tracer | null {
  return tracer;
}

export type UpstreamMethod = 'tools/call' | 'resources/read' | 'prompts/get';

/** The semantic-convention attribute naming a request's target, per method. */
export const TARGET_ATTRIBUTE: Readonly<Record<UpstreamMethod, string>> = {
  'tools/call': 'gen_ai.tool.name',
  'resources/read': 'mcp.resource.uri',
  'prompts/get': 'gen_ai.prompt.name',
};

export interface UpstreamRequest {
  readonly method: UpstreamMethod;
  /** The tool or prompt name, or the resource URI. */
  readonly target: string;
  readonly server: string;
  /** The contributing environment (null: a thread-wide registration). */
  readonly environmentId: string | null;
  /** The protocol revision negotiated with the server. */
  readonly protocolVersion: string | undefined;
}

/** One traced upstream request: its span and the `_meta` to send. */
export interface UpstreamSpan {
  readonly span: Span;
  readonly meta: unknown;
}

/** Start the CLIENT span of a request (tracing on only) and the `_meta` that carries it. */
export function startUpstreamSpan(
  active: Tracer,
  request: UpstreamRequest,
  meta: unknown,
): UpstreamSpan {
  const attributes: Attributes = {
    'mcp.method.name': request.method,
    [TARGET_ATTRIBUTE[request.method]]: request.target,
    'mcprt.server': request.server,
  };
  if (request.protocolVersion !== undefined) {
    attributes['mcp.protocol.version'] = request.protocolVersion;
  }
  if (request.environmentId !== null) attributes['mcprt.environment'] = request.environmentId;
  const span = active.startSpan(
    `${request.method} ${request.target}`,
    { kind: SpanKind.CLIENT, attributes },
    context.active(),
  );
  return { span, meta: metaWithTraceContext(meta, span.spanContext()) };
}

/** End a span with its outcome: a tool result with `isError` is a `tool_error`. */
export function endSpan(span: Span, result: unknown): void {
  if (typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** End a span that failed: `error.type` is the error's code or class, never its message. */
export function failSpan(span: Span, error: unknown): void {
  span.setAttribute('error.type', errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * A low-cardinality name for a failure, never its message: a JSON-RPC code (a server's, or the
 * protocol's), a failed request's kind (`connection_closed`, …), an mcprt code, the class name.
 */
export function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const failure = error as { serverError?: { code?: unknown } | null; kind?: unknown };
    const served = failure.serverError?.code;
    if (typeof served === 'number' && Number.isInteger(served)) return String(served);
    if (typeof failure.kind === 'string' && /^[a-z_]{1,32}$/.test(failure.kind)) {
      return failure.kind;
    }
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number' && Number.isInteger(code)) return String(code);
    if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
    const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string' && name !== '' && name !== 'Object') return name;
  }
  return '_OTHER';
}

/** `promise` with `span` ended by its outcome. */
export function traced<T>(span: Span, promise: Promise<T>): Promise<T> {
  return promise.then(
    (value) => {
      endSpan(span, value);
      return value;
    },
    (error: unknown) => {
      failSpan(span, error);
      throw error;
    },
  );
}

/** What a connection tells of itself for its requests' spans. */
export interface UpstreamSource {
  readonly config: {
    readonly scope: { readonly name: string; readonly environmentId: string | null };
  };
  readonly protocolVersion: string | undefined;
}

/**
 * `send` a request of `source` as a CLIENT span (tracing on only: the caller checks
 * `activeTracer()` first), with the span's context added to `meta`.
 */
export function traceUpstream<T>(
  active: Tracer,
  source: UpstreamSource,
  method: UpstreamMethod,
  target: string,
  meta: unknown,
  send: (meta: unknown) => Promise<T>,
): Promise<T> {
  const { scope } = source.config;
  const upstream = startUpstreamSpan(
    active,
    {
      method,
      target,
      server: scope.name,
      environmentId: scope.environmentId,
      protocolVersion: source.protocolVersion,
    },
    meta,
  );
  let sent: Promise<T>;
  try {
    sent = send(upstream.meta);
  } catch (error) {
    sent = Promise.reject(error);
  }
  return traced(upstream.span, sent);
}
