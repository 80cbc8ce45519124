/**
 * Issuer discovery against a real HTTP server on 127.0.0.1: RFC 8414 first, OpenID Connect as
 * the fallback, the documents' issuer compared text for text, a jwks_uri that is not https
 * refused, and one typed error naming every attempt.
 */

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { discoverJwksUri, discoveryUrls, IssuerDiscoveryError } from './issuerDiscovery.js';

describe('issuer discovery', () => {
  let server: Server;
  let base = '';
  /** Path → document (or a status). */
  const documents = new Map<string, unknown>();
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '');
      const doc = documents.get(req.url ?? '');
      if (typeof doc === 'number') return void res.writeHead(doc).end();
      if (doc === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(typeof doc === 'string' ? doc : JSON.stringify(doc));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('the URLs, in the MCP spec order', () => {
    expect(discoveryUrls('https://as.example.com')).toEqual([
      'https://as.example.com/.well-known/oauth-authorization-server',
      'https://as.example.com/.well-known/openid-configuration',
    ]);
    expect(discoveryUrls('https://as.example.com/tenant/1/')).toEqual([
      'https://as.example.com/.well-known/oauth-authorization-server/tenant/1',
      'https://as.example.com/.well-known/openid-configuration/tenant/1',
      'https://as.example.com/tenant/1/.well-known/openid-configuration',
    ]);
  });

  it('RFC 8414 metadata first', async () => {
    documents.clear();
    documents.set('/.well-known/oauth-authorization-server', {
      issuer: base,
      jwks_uri: `${base}/a`,
    });
    documents.set('/.well-known/openid-configuration', { issuer: base, jwks_uri: `${base}/b` });
    expect(await discoverJwksUri(base)).toBe(`${base}/a`);
  });

  it('OpenID Connect discovery as the fallback (also for an issuer with a path)', async () => {
    documents.clear();
    documents.set('/.well-known/oauth-authorization-server', 500);
    documents.set('/.well-known/openid-configuration', { issuer: base, jwks_uri: `${base}/b` });
    expect(await discoverJwksUri(base)).toBe(`${base}/b`);
    documents.set('/t/.well-known/openid-configuration', {
      issuer: `${base}/t`,
      jwks_uri: `${base}/t/k`,
    });
    requested.length = 0;
    expect(await discoverJwksUri(`${base}/t`)).toBe(`${base}/t/k`);
    expect(requested).toEqual([
      '/.well-known/oauth-authorization-server/t',
      '/.well-known/openid-configuration/t',
      '/t/.well-known/openid-configuration',
    ]);
  });

  it('another issuer, a missing or insecure jwks_uri, bad JSON: refused, one typed error', async () => {
    documents.clear();
    documents.set('/.well-known/oauth-authorization-server', {
      issuer: `${base}/`,
      jwks_uri: `${base}/a`,
    });
    documents.set('/.well-known/openid-configuration', {
      issuer: base,
      jwks_uri: 'http://keys.example.com/',
    });
    const error = await discoverJwksUri(base).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssuerDiscoveryError);
    expect(error).toMatchObject({
      code: 'discovery_failed',
      message: `cannot discover the authorization server ${base}: ${base}/.well-known/oauth-authorization-server: the document names another issuer; ${base}/.well-known/openid-configuration: its jwks_uri is not https`,
    });
    documents.set('/.well-known/oauth-authorization-server', '{');
    documents.set('/.well-known/openid-configuration', { issuer: base });
    await expect(discoverJwksUri(base)).rejects.toThrow(
      `${base}/.well-known/oauth-authorization-server: the document is not JSON; ${base}/.well-known/openid-configuration: the document has no jwks_uri`,
    );
  });

  it('an unreachable issuer', async () => {
    await expect(discoverJwksUri('http://127.0.0.1:1')).rejects.toBeInstanceOf(
      IssuerDiscoveryError,
    );
  });
});
