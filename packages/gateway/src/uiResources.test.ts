/** Unit tests: the gateway's `ui://` form of MCP App URIs, and which tools a client is shown. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { unwrapResourceUri, wrapResourceUri } from './resourceUri.js';
import { gatewayToolMeta, messageDeclaresApps, unwrapUiUri, wrapUiUri } from './uiResources.js';

const box = { environmentId: 'dev box', name: 'apps/1' };

describe('wrapUiUri / unwrapUiUri', () => {
  it('keeps the ui:// scheme and round-trips every scope', () => {
    const scope = fc.record({
      environmentId: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: null }),
      name: fc.string({ minLength: 1, maxLength: 8 }),
    });
    fc.assert(
      fc.property(scope, fc.string({ maxLength: 30 }), (s, rest) => {
        const wrapped = wrapResourceUri(s, `ui://${rest}`);
        expect(wrapped.startsWith('ui://mcprt/')).toBe(true);
        expect(unwrapResourceUri(wrapped)).toEqual({ scope: s, uri: `ui://${rest}` });
      }),
      { numRuns: 300 },
    );
  });

  it('names the scope in the path', () => {
    expect(wrapUiUri(box, 'ui://demo/app.html')).toBe(
      'ui://mcprt/env/dev%20box/apps%2F1/demo/app.html',
    );
    expect(wrapUiUri({ environmentId: null, name: 'apps' }, 'ui://demo/app.html')).toBe(
      'ui://mcprt/thread/apps/demo/app.html',
    );
    expect(wrapUiUri(box, 'file:///x')).toBeUndefined();
  });

  it('is not fooled by ui:// URIs that are not its own', () => {
    for (const uri of [
      'ui://demo/app.html',
      'ui://mcprt/env/a',
      'ui://mcprt/thread/%E0%A4%A/x',
      'ui://mcprt/other/a/b',
    ]) {
      expect(unwrapUiUri(uri), uri).toBeNull();
    }
  });
});

describe('gatewayToolMeta', () => {
  it('rewrites both keys and keeps every other key', () => {
    const meta = {
      ui: { resourceUri: 'ui://demo/a', visibility: ['model'] },
      'ui/resourceUri': 'ui://demo/a',
      k: 1,
    };
    expect(gatewayToolMeta(meta, box, wrapResourceUri)).toEqual({
      ui: { resourceUri: 'ui://mcprt/env/dev%20box/apps%2F1/demo/a', visibility: ['model'] },
      'ui/resourceUri': 'ui://mcprt/env/dev%20box/apps%2F1/demo/a',
      k: 1,
    });
    const plain = { ui: { visibility: ['app'] } };
    expect(gatewayToolMeta(plain, box, wrapResourceUri)).toBe(plain);
    expect(gatewayToolMeta(undefined, box, wrapResourceUri)).toBeUndefined();
  });
});

describe('messageDeclaresApps', () => {
  const ext = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
  it('reads an initialize and a 2026-07-28 envelope', () => {
    expect(
      messageDeclaresApps({ method: 'initialize', params: { capabilities: { extensions: ext } } }),
    ).toBe(true);
    expect(
      messageDeclaresApps({
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: ext } } },
      }),
    ).toBe(true);
  });
  it('needs the HTML profile among the MIME types', () => {
    const other = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/plain'] } };
    expect(
      messageDeclaresApps({
        method: 'initialize',
        params: { capabilities: { extensions: other } },
      }),
    ).toBe(false);
    expect(messageDeclaresApps({ method: 'initialize', params: { capabilities: {} } })).toBe(false);
    expect(messageDeclaresApps('initialize')).toBe(false);
  });
});
