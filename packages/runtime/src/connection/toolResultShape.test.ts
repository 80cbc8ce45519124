import { describe, expect, it } from 'vitest';

import { toolResultShape } from './toolResultShape.js';

describe('toolResultShape', () => {
  it('returns a valid result as sent, unknown keys of the result and its blocks included', () => {
    const raw = {
      content: [
        { type: 'text', text: 'hi', extra: 1 },
        { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'x://a', name: 'a' },
        { type: 'resource', resource: { uri: 'x://b', blob: 'aGk=' } },
      ],
      structuredContent: { n: 1 },
      isError: false,
      _meta: { k: 'v' },
      vendor: { any: true },
    };
    const shape = toolResultShape(raw);
    expect(shape).toEqual({ ok: true, result: raw });
    expect(shape.ok && shape.result).toBe(raw);
  });

  it('drops resultType and gives a contentless result empty content, as the SDK’s 2025 codec', () => {
    expect(toolResultShape({ resultType: 'complete', structuredContent: { a: 1 } })).toEqual({
      ok: true,
      result: { structuredContent: { a: 1 }, content: [] },
    });
    // Another result family's keys never default into an empty success.
    expect(toolResultShape({ requestState: 'x' })).toEqual({
      ok: false,
      reason: 'content: expected an array',
    });
  });

  it('names the path and the rule of what is wrong', () => {
    const reason = (raw: unknown) => {
      const shape = toolResultShape(raw);
      return shape.ok ? null : shape.reason;
    };
    expect(reason(null)).toBe('expected an object');
    expect(reason([])).toBe('expected an object');
    expect(reason({ content: [{ type: 'video' }] })).toBe(
      'content[0].type: expected one of text, image, audio, resource_link, resource',
    );
    expect(reason({ content: [{ type: 'audio', data: 'aGk=' }] })).toBe(
      'content[0].mimeType: expected a string',
    );
    expect(reason({ content: [{ type: 'resource_link', uri: 'x://a' }] })).toBe(
      'content[0].name: expected a string',
    );
    expect(reason({ content: [{ type: 'resource', resource: { uri: 'x://a' } }] })).toBe(
      'content[0].resource: expected a text or base64 blob member',
    );
    expect(reason({ content: [{ type: 'text', text: 'a', _meta: 3 }] })).toBe(
      'content[0]._meta: expected an object',
    );
    expect(reason({ content: [], structuredContent: [1] })).toBe(
      'structuredContent: expected an object',
    );
    expect(reason({ content: [], isError: 'yes' })).toBe('isError: expected a boolean');
    expect(reason({ content: [], _meta: 'm' })).toBe('_meta: expected an object');
  });
});
