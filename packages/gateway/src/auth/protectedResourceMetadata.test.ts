/** RFC 9728 paths and URLs for the gateway's resource URI, and the document. */

import { describe, expect, it } from 'vitest';

import {
  metadataPath,
  metadataUrl,
  ProtectedResourceMetadata,
  resolveResource,
} from './protectedResourceMetadata.js';

describe('protected-resource metadata', () => {
  it('the resource: the configured one, else the listen URL (`/mcp` added to a base URL)', () => {
    expect(resolveResource(null, 'http://127.0.0.1:8080/mcp')).toBe('http://127.0.0.1:8080/mcp');
    expect(resolveResource(null, 'https://gw.example.com:8443')).toBe(
      'https://gw.example.com:8443/mcp',
    );
    expect(resolveResource(null, 'https://gw.example.com/')).toBe('https://gw.example.com/mcp');
    expect(resolveResource('https://x/mcp', 'http://127.0.0.1:1/mcp')).toBe('https://x/mcp');
  });

  it('the metadata URL: the well-known path inserted before the resource path', () => {
    expect(metadataPath('http://127.0.0.1:8080/mcp')).toBe(
      '/.well-known/oauth-protected-resource/mcp',
    );
    expect(metadataUrl('https://gw.example.com/team/mcp')).toBe(
      'https://gw.example.com/.well-known/oauth-protected-resource/team/mcp',
    );
    expect(metadataUrl('https://gw.example.com')).toBe(
      'https://gw.example.com/.well-known/oauth-protected-resource',
    );
  });

  it('the document, at both paths', () => {
    const metadata = new ProtectedResourceMetadata({
      resource: 'https://gw.example.com/mcp',
      issuer: 'https://login.example.com',
      scopes: ['mcp:tools'],
    });
    const document = metadata.publicDocument('/.well-known/oauth-protected-resource/mcp');
    expect(JSON.parse(document?.body ?? '')).toEqual({
      resource: 'https://gw.example.com/mcp',
      authorization_servers: ['https://login.example.com'],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'mcprt gateway',
    });
    expect(document?.contentType).toBe('application/json');
    expect(metadata.publicDocument('/.well-known/oauth-protected-resource')).toEqual(document);
    expect(metadata.publicDocument('/.well-known/oauth-protected-resource/other')).toBeNull();
  });
});
