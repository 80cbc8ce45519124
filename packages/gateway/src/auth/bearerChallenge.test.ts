/**
 * The RFC 6750 pieces: which `Authorization` headers carry a bearer token, the exact challenge
 * texts, and that a parameter needing escaping is refused rather than written.
 */

import { describe, expect, it } from 'vitest';

import {
  bearerChallenge,
  insufficientScope,
  invalidToken,
  MAX_TOKEN_LENGTH,
  readBearer,
  tokenRequired,
} from './bearerChallenge.js';

const META = 'https://gw.example.com/.well-known/oauth-protected-resource/mcp';

describe('readBearer', () => {
  it('a token after `Bearer` (any case, any spacing)', () => {
    for (const header of [
      'Bearer abc.def-_~+/=',
      'bearer abc.def-_~+/=',
      '  BEARER\tabc.def-_~+/=  ',
    ]) {
      expect(readBearer(header)).toEqual({ kind: 'token', token: 'abc.def-_~+/=' });
    }
  });

  it('no header, another scheme or an empty bearer: no token', () => {
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer  ', 'Bearerabc']) {
      expect(readBearer(header)).toEqual({ kind: 'none' });
    }
  });

  it('spaces, other characters or a huge token: malformed', () => {
    for (const header of [
      'Bearer a b',
      'Bearer a"b',
      'Bearer =abc',
      `Bearer ${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`,
    ]) {
      expect(readBearer(header)).toEqual({ kind: 'malformed' });
    }
    expect(readBearer(`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH)}`).kind).toBe('token');
  });
});

describe('challenges', () => {
  it('parameters in order, only those given', () => {
    expect(bearerChallenge({ resourceMetadata: META })).toBe(`Bearer resource_metadata="${META}"`);
    expect(
      bearerChallenge({ error: 'insufficient_scope', scope: 'a b', resourceMetadata: META }),
    ).toBe(`Bearer error="insufficient_scope", scope="a b", resource_metadata="${META}"`);
  });

  it('a value that would need escaping is refused', () => {
    expect(() => bearerChallenge({ errorDescription: 'a"b', resourceMetadata: META })).toThrow(
      'challenge parameter error_description needs escaping',
    );
    expect(() => bearerChallenge({ resourceMetadata: 'a\nb' })).toThrow(TypeError);
  });

  it('the three refusals', () => {
    const json = { 'content-type': 'application/json' };
    expect(tokenRequired(META)).toEqual({
      ok: false,
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${META}"`, ...json },
      body: '{"error":"unauthorized","error_description":"a bearer token is required"}\n',
    });
    expect(invalidToken(META, 'the token has expired')).toEqual({
      ok: false,
      status: 401,
      headers: {
        'www-authenticate': `Bearer error="invalid_token", error_description="the token has expired", resource_metadata="${META}"`,
        ...json,
      },
      body: '{"error":"invalid_token","error_description":"the token has expired"}\n',
    });
    expect(insufficientScope(META, ['a', 'b'], ['b'])).toEqual({
      ok: false,
      status: 403,
      headers: {
        'www-authenticate': `Bearer error="insufficient_scope", scope="a b", resource_metadata="${META}"`,
        ...json,
      },
      body: '{"error":"insufficient_scope","error_description":"the token lacks the required scope: b","scope":"a b"}\n',
    });
  });
});
