/**
 * W3C trace context (https://www.w3.org/TR/trace-context/) in MCP request `_meta` (SEP-414: the
 * `traceparent` and `tracestate` keys, the MCP SDK's TRACEPARENT_META_KEY / TRACESTATE_META_KEY)
 * and in HTTP headers. Parsed and written here, explicitly, rather than through whichever
 * propagator is registered globally: the keys an upstream server receives are always the W3C
 * ones, whatever `OTEL_PROPAGATORS` says. Only `@opentelemetry/api` is used.
 */

import type { Context, SpanContext } from '@opentelemetry/api';
import { createTraceState, isSpanContextValid, trace } from '@opentelemetry/api';

export const TRACEPARENT_META_KEY = 'traceparent';
export const TRACESTATE_META_KEY = 'tracestate';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The span context a `traceparent` (and `tracestate`) names; undefined when malformed. */
export function parseTraceparent(
  traceparent: unknown,
  tracestate?: unknown,
): SpanContext | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is invalid; version 00 has exactly four fields (later versions may add more).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  const context: SpanContext = {
    traceId: traceId!,
    spanId: spanId!,
    traceFlags: parseInt(flags!, 16) & 1,
    isRemote: true,
  };
  if (!isSpanContextValid(context)) return undefined;
  if (typeof tracestate === 'string' && tracestate.trim() !== '') {
    context.traceState = createTraceState(tracestate);
  }
  return context;
}

/** `00-<trace id>-<span id>-<flags>`. */
export function formatTraceparent(context: SpanContext): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** `base` with the remote parent named by a `_meta`'s keys, or undefined when it names none. */
export function contextFromMeta(meta: unknown, base: Context): Context | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const record = meta as Record<string, unknown>;
  const parent = parseTraceparent(record[TRACEPARENT_META_KEY], record[TRACESTATE_META_KEY]);
  return parent === undefined ? undefined : trace.setSpanContext(base, parent);
}

/** The same from HTTP headers (`get` reads one header by its lower-case name). */
export function contextFromHeaders(
  get: (name: string) => string | null | undefined,
  base: Context,
): Context | undefined {
  const parent = parseTraceparent(get(TRACEPARENT_META_KEY), get(TRACESTATE_META_KEY) ?? undefined);
  return parent === undefined ? undefined : trace.setSpanContext(base, parent);
}

/**
 * The `_meta` to send upstream with `span` as the server's parent: the given object's keys
 * (a caller's own `traceparent`/`tracestate` replaced), a new object when none was given. A
 * non-object `_meta` a client forwarded untouched stays untouched.
 */
export function metaWithTraceContext(meta: unknown, span: SpanContext): unknown {
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
    return meta;
  }
  // Object.fromEntries keeps a `__proto__` key as data (an assignment would set the prototype).
  const kept = Object.entries((meta ?? {}) as Record<string, unknown>).filter(
    ([key]) => key !== TRACEPARENT_META_KEY && key !== TRACESTATE_META_KEY,
  );
  kept.push([TRACEPARENT_META_KEY, formatTraceparent(span)]);
  const state = span.traceState?.serialize();
  if (state !== undefined && state !== '') kept.push([TRACESTATE_META_KEY, state]);
  return Object.fromEntries(kept);
}
