import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

import {
  contextFromHeaders,
  contextFromMeta,
  formatTraceparent,
  metaWithTraceContext,
  parseTraceparent,
} from './traceContext.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const GOOD = `00-${TRACE}-${SPAN}-01`;

describe('W3C trace context in _meta', () => {
  it('parses a traceparent and its tracestate', () => {
    const parsed = parseTraceparent(GOOD, 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
    expect(parsed).toMatchObject({ traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true });
    expect(parsed?.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(formatTraceparent(parsed!)).toBe(GOOD);
  });

  it.each([
    ['not a string', 42],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['a short span id', `00-${TRACE}-b7ad6b71-01`],
    ['extra fields on version 00', `${GOOD}-extra`],
  ])('refuses %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('keeps the flags of a later version and ignores its extra fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-00-more`)).toMatchObject({ traceFlags: 0 });
  });

  it('reads a parent from _meta or headers, nothing from anything else', () => {
    const fromMeta = contextFromMeta({ traceparent: GOOD }, ROOT_CONTEXT);
    expect(trace.getSpanContext(fromMeta!)?.spanId).toBe(SPAN);
    expect(contextFromMeta([GOOD], ROOT_CONTEXT)).toBeUndefined();
    expect(contextFromMeta({ traceparent: 'nonsense' }, ROOT_CONTEXT)).toBeUndefined();
    const headers = new Headers({ traceparent: GOOD });
    const fromHeaders = contextFromHeaders((name) => headers.get(name), ROOT_CONTEXT);
    expect(trace.getSpanContext(fromHeaders!)?.traceId).toBe(TRACE);
  });

  it('replaces a caller’s trace context in _meta and keeps every other key', () => {
    const span = { traceId: TRACE, spanId: 'aaaaaaaaaaaaaaaa', traceFlags: 1 };
    const meta = { traceparent: GOOD, tracestate: 'old=1', threadId: 't', ['__proto__']: 1 };
    const sent = metaWithTraceContext(JSON.parse(JSON.stringify(meta)), span) as object;
    expect(sent).toEqual({
      threadId: 't',
      ['__proto__']: 1,
      traceparent: `00-${TRACE}-aaaaaaaaaaaaaaaa-01`,
    });
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(metaWithTraceContext(undefined, span)).toEqual({
      traceparent: `00-${TRACE}-aaaaaaaaaaaaaaaa-01`,
    });
    // A non-object `_meta` a client forwarded untouched stays untouched.
    expect(metaWithTraceContext('text', span)).toBe('text');
  });
});
