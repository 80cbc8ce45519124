/** Unit tests: the wrapped resource URI scheme is reversible and keeps scopes apart. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { unwrapResourceUri, wrapResourceUri } from './resourceUri.js';

const scope = fc.record({
  environmentId: fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), {
    nil: null,
  }),
  name: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
});

describe('wrapResourceUri / unwrapResourceUri', () => {
  it('round-trips every scope and URI', () => {
    fc.assert(
      fc.property(scope, fc.string({ unit: 'binary', maxLength: 40 }), (s, uri) => {
        expect(unwrapResourceUri(wrapResourceUri(s, uri))).toEqual({ scope: s, uri });
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same URI in two scopes two different URIs', () => {
    fc.assert(
      fc.property(scope, scope, fc.string({ maxLength: 20 }), (a, b, uri) => {
        fc.pre(a.environmentId !== b.environmentId || a.name !== b.name);
        expect(wrapResourceUri(a, uri)).not.toBe(wrapResourceUri(b, uri));
      }),
    );
  });

  it('keeps the original URI verbatim at the end, so a template expands the same way', () => {
    const template = 'file:///{+path}?q={query}';
    const wrapped = wrapResourceUri({ environmentId: 'dev box', name: 'fs/1' }, template);
    expect(wrapped).toBe('mcprt://env/dev%20box/fs%2F1/file:///{+path}?q={query}');
    const expanded = wrapped.replace('{+path}', 'a/b').replace('{query}', 'x%20y');
    expect(unwrapResourceUri(expanded)).toEqual({
      scope: { environmentId: 'dev box', name: 'fs/1' },
      uri: 'file:///a/b?q=x%20y',
    });
    expect(wrapResourceUri({ environmentId: null, name: 'docs' }, 'mem://x')).toBe(
      'mcprt://thread/docs/mem://x',
    );
  });

  it('is not fooled by URIs that are not its own', () => {
    for (const uri of [
      'fixture://greeting',
      'mcprt://gateway/status',
      'mcprt://env/a',
      'mcprt://env//x/y',
      'mcprt://thread/%E0%A4%A/x',
      'mcprt://other/a/b/c',
    ]) {
      expect(unwrapResourceUri(uri), uri).toBeNull();
    }
  });
});
