import type { ToolCallCompleted, ToolCallStarted } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { EncodedJson } from './encodedJson.js';
import { toolCallItem } from './threadEvents.js';
import { ToolCallEncoder } from './toolCallText.js';

// The object form the encoder must match byte for byte (what was sent before ADR 0022).
const startedParams = (e: ToolCallStarted) =>
  JSON.stringify({
    threadId: e.threadId,
    turnId: e.id,
    item: toolCallItem(e),
    startedAtMs: e.startedAt,
  });
const completedParams = (e: ToolCallCompleted) =>
  JSON.stringify({
    threadId: e.threadId,
    turnId: e.id,
    item: toolCallItem(e),
    completedAtMs: e.startedAt + e.durationMs,
  });

const started: ToolCallStarted = {
  id: 'call_1',
  threadId: 't-"1"',
  scope: { environmentId: 'box', name: 'docs' },
  server: 'docs\n',
  environmentId: 'box',
  tool: 'search\u2028',
  arguments: { q: 'x "y" \\ \u0001', nested: [1, null, { deep: true }] },
  startedAt: 1_000,
};

const done = (over: Partial<ToolCallCompleted>): ToolCallCompleted => ({
  ...started,
  status: 'completed',
  result: { content: [{ type: 'text', text: 'ok' }] },
  error: null,
  durationMs: 12,
  ...over,
});

describe('ToolCallEncoder', () => {
  it('writes item/started and item/completed exactly as JSON.stringify of the items', () => {
    const cases: ToolCallCompleted[] = [
      done({}),
      done({ environmentId: null, arguments: null }),
      done({ status: 'failed', result: { content: [], isError: true, _meta: { k: 1 }, extra: 2 } }),
      done({ result: { structuredContent: { a: 1 }, content: [{ type: 'text', text: 'x' }] } }),
      done({ result: { content: 'not a list', _meta: undefined } }),
      done({ result: { content: [], structuredContent: undefined, _meta: null } }),
      done({ status: 'cancelled', result: null, error: 'cancelled "by" the client' }),
      done({ status: 'failed', result: null, error: 'timed out\n' }),
    ];
    for (const e of cases) {
      const encoder = new ToolCallEncoder();
      const { status: _s, result: _r, error: _e, durationMs: _d, ...start } = e;
      expect(encoder.started(start)).toBe(startedParams(start));
      expect(encoder.completed(e)).toBe(completedParams(e));
      expect(JSON.parse(encoder.completed(e))).toEqual(JSON.parse(completedParams(e)));
    }
  });

  it('encodes a content-only result once for item/completed and the response', () => {
    const encoder = new ToolCallEncoder();
    const e = done({});
    encoder.started(e);
    encoder.completed(e);
    const response = encoder.response(e.id, e.result!);
    expect(response).toBeInstanceOf(EncodedJson);
    expect((response as EncodedJson).text).toBe(JSON.stringify(e.result));
    // Taken once: a second response (or another result object) is the value itself.
    expect(encoder.response(e.id, e.result!)).toBe(e.result);
  });

  it('answers with the value itself when the response is not the encoded result', () => {
    const encoder = new ToolCallEncoder();
    const e = done({});
    encoder.completed(e);
    const other = { content: [{ type: 'text', text: 'ok' }] };
    expect(encoder.response(e.id, other)).toBe(other);
    const withFlag = done({ id: 'call_2', result: { content: [], isError: false } });
    encoder.completed(withFlag);
    expect(encoder.response(withFlag.id, withFlag.result!)).toBe(withFlag.result);
  });

  it('forgets a call that ends without a response', () => {
    const encoder = new ToolCallEncoder();
    const e = done({});
    encoder.started(e);
    encoder.completed(e);
    encoder.forget(e.id);
    expect(encoder.response(e.id, e.result!)).toBe(e.result);
  });
});
