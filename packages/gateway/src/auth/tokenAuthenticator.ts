/**
 * `[serve.auth] mode = "token"` (the default): one static bearer token, on loopback. A request
 * whose `Authorization` is exactly `Bearer <token>` (compared in constant time) is the token's
 * holder (`TOKEN_CALLER`); anything else is 401 with `WWW-Authenticate: Bearer realm="mcprt"`.
 * There are no public documents.
 */

import { bearerMatches, MIN_TOKEN_LENGTH } from '@mcprt/base';

import { TOKEN_CALLER } from '../caller.js';
import type { AuthOutcome, HttpAuthenticator } from './authenticator.js';

const REFUSED: AuthOutcome = {
  ok: false,
  status: 401,
  headers: { 'www-authenticate': 'Bearer realm="mcprt"' },
  body: 'unauthorized\n',
};

const ACCEPTED: AuthOutcome = { ok: true, caller: TOKEN_CALLER };

export function createTokenAuthenticator(token: string): HttpAuthenticator {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`the HTTP token must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  return {
    authenticate: (authorization) =>
      Promise.resolve(bearerMatches(authorization, token) ? ACCEPTED : REFUSED),
    publicDocument: () => null,
  };
}
