/**
 * Unit tests: the 2026 fast path's response line is, byte for byte, the SDK's encoding of a
 * `tools/call` result (`resultType` stamped after the result's own keys, the server identity
 * added to `_meta`) — the text shortcut for results without `_meta` included.
 */

import { describe, expect, it } from 'vitest';

import { ModernEnvelopes } from './fastPathModern.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const info = { name: 'mcprt', version: '0.1.0', title: 'mcprt "gateway"' };

/** An envelope table that has learned the server identity from an accepted answer. */
function learned(): ModernEnvelopes {
  const envelopes = new ModernEnvelopes();
  envelopes.observe(1, '["2026-07-28"]');
  envelopes.sent({ jsonrpc: '2.0', id: 1, result: { tools: [], _meta: { [SERVER_INFO]: info } } });
  expect(envelopes.accepts('["2026-07-28"]')).toBe(true);
  return envelopes;
}

/** The encoding as object spreads (what the SDK's 2026 encoder produces), serialized. */
function reference(id: string | number, result: Record<string, unknown>): string {
  let stamped: Record<string, unknown> = { ...result, resultType: 'complete' };
  const meta = stamped['_meta'];
  if (meta === undefined) stamped = { ...stamped, _meta: { [SERVER_INFO]: info } };
  else if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    if ((meta as Record<string, unknown>)[SERVER_INFO] === undefined) {
      stamped = { ...stamped, _meta: { ...meta, [SERVER_INFO]: info } };
    }
  }
  return `${JSON.stringify({ jsonrpc: '2.0', id, result: stamped })}\n`;
}

describe('ModernEnvelopes.resultLine', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['text content', { content: [{ type: 'text', text: 'hi "there"\n' }] }],
    ['an error result', { content: [{ type: 'text', text: 'no' }], isError: true }],
    [
      'structured content',
      { content: [], structuredContent: { a: [1, { b: null }] }, isError: false },
    ],
    ['an empty result', {}],
    ['its own _meta', { content: [], _meta: { 'example/key': 1 } }],
    ['_meta naming a server already', { content: [], _meta: { [SERVER_INFO]: { name: 'x' } } }],
    ['_meta that is not an object', { content: [], _meta: 5 }],
  ];

  for (const [what, result] of cases) {
    it(`encodes ${what} as the SDK does`, () => {
      const envelopes = learned();
      for (const id of [7, 'call-1']) {
        const line = envelopes.resultLine(id, result);
        expect(line).toBe(reference(id, result));
        expect(JSON.parse(line)).toEqual(JSON.parse(reference(id, result)));
      }
    });
  }

  it('leaves the result it was given unchanged', () => {
    const result = { content: [{ type: 'text', text: 'x' }], _meta: { keep: true } };
    const copy = structuredClone(result);
    learned().resultLine(1, result);
    expect(result).toEqual(copy);
  });
});
