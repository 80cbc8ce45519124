/**
 * Validation of `[serve.auth]` (shape in serveTypes.ts; docs/gateway.md): how `mcprt serve` over
 * HTTP identifies its callers.
 *
 *   [serve.auth]
 *   mode = "oauth"                              # "token" (the default) or "oauth"
 *   issuer = "https://login.example.com"        # oauth: required; its metadata names the JWKS
 *   resource = "https://gw.example.com/mcp"     # the tokens' `aud` (default: the listen URL)
 *   scopes = ["mcp:tools"]                      # required of every token (default: none)
 *   groups_claim = "groups"                     # the claim holding the caller's groups
 *   clock_skew_sec = 60                         # 0–300
 *   jwks_uri = "https://login.example.com/jwks" # overrides the issuer metadata's
 *
 * `issuer`, `resource` and `jwks_uri` must be absolute `https` URLs (`http` only for a loopback
 * host: 127.0.0.1, localhost, [::1]) without credentials or fragment; `issuer` and `resource`
 * also without a query (RFC 8414, RFC 8707). They are kept exactly as written: an issuer is
 * compared with the metadata's and the token's `iss` text for text, a resource with `aud`.
 *
 * Diagnostics follow views.ts: problems are error diagnostics naming `file:line:column:
 * serve.auth.key`, unknown keys warnings. **Fails closed**: a problem (an error, or an unknown
 * key in an `oauth` table — a misspelt `scopes` would drop the required scopes) makes the whole
 * table fall back to the default, `mode = "token"` (loopback only, the owner's token), never to
 * an `oauth` table with a key dropped. Because error diagnostics are shown only with `--strict`,
 * the fallback is also said once as a warning at `serve.auth`, with the first problem.
 */

import type { Context } from './diagnostics.js';
import { Sink } from './diagnostics.js';
import { Fields, isTable, typeName } from './fields.js';
import type { KeyPath } from './locate.js';
import type { ServeAuthConfig, ServeAuthMode, ServeOAuthConfig } from './serveTypes.js';
import {
  DEFAULT_CLOCK_SKEW_SEC,
  DEFAULT_GROUPS_CLAIM,
  DEFAULT_SERVE_AUTH,
  SERVE_AUTH_MODES,
} from './serveTypes.js';

const OAUTH_KEYS = ['issuer', 'resource', 'scopes', 'groups_claim', 'clock_skew_sec', 'jwks_uri'];
const AUTH_KEYS = new Set(['mode', ...OAUTH_KEYS]);

/** RFC 6749 §3.3 scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Hosts for which `http` is allowed (the listener and the tests on loopback). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Reads `serve.auth` of the `[serve]` table `serve`; see the module header. */
export function readServeAuth(ctx: Context, serve: Fields): ServeAuthConfig {
  if (!serve.has('auth')) return DEFAULT_SERVE_AUTH;
  const sink = new Sink(ctx);
  const path = serve.at('auth');
  /** The first problem found (an error, or an unknown key of an `oauth` table). */
  let firstProblem: string | null = null;
  const note = (p: KeyPath, problem: string): void => {
    firstProblem ??= `${ctx.location(p).keyPath}: ${problem}`;
  };
  const error = (p: KeyPath, problem: string): void => {
    sink.error(p, problem);
    note(p, problem);
  };
  const fallback = (): ServeAuthConfig => {
    sink.warn(
      path,
      `[serve.auth] is not applied: \`mcprt serve\` uses mode = "token" until it is fixed (first problem: ${firstProblem ?? ''})`,
    );
    return DEFAULT_SERVE_AUTH;
  };

  const raw = serve.table['auth'];
  if (!isTable(raw)) {
    error(path, `expected a table, found ${typeName(raw)}`);
    return fallback();
  }
  const f = new Fields(raw, path, error);
  const mode: ServeAuthMode | null = f.has('mode')
    ? f.enumeration('mode', SERVE_AUTH_MODES)
    : 'token';
  if (mode === null) return fallback();
  const location = ctx.location(path);

  if (mode === 'token') {
    for (const key of Object.keys(raw)) {
      if (!AUTH_KEYS.has(key)) sink.warn(f.at(key), `unknown key \`${key}\``);
      else if (key !== 'mode') sink.warn(f.at(key), `\`${key}\` is only read with mode = "oauth"`);
    }
    return { mode, oauth: null, location };
  }

  f.unknownKeys(AUTH_KEYS, (p, problem) => {
    sink.warn(p, problem);
    note(p, problem);
  });
  const oauth = readOAuth(f, error);
  if (firstProblem !== null || oauth === null) return fallback();
  return { mode, oauth, location };
}

/** The `oauth` keys; null when `issuer` is missing (each problem is reported). */
function readOAuth(
  f: Fields,
  error: (p: KeyPath, problem: string) => void,
): ServeOAuthConfig | null {
  const url = (key: string, noQuery: boolean): string | null => {
    const value = f.string(key);
    if (value === null) return null;
    const problem = urlProblem(value, noQuery);
    if (problem !== null) error(f.at(key), `${key} \`${value}\` ${problem}`);
    return value;
  };
  const issuer = url('issuer', true);
  if (issuer === null && !f.has('issuer')) {
    error(f.path, 'mode = "oauth" requires `issuer` (the authorization server\'s issuer URL)');
  }
  const resource = url('resource', true);
  const jwksUri = url('jwks_uri', false);

  const scopes = f.stringArray('scopes') ?? [];
  scopes.forEach((scope, index) => {
    if (!SCOPE_TOKEN.test(scope)) {
      error(
        [...f.at('scopes'), index],
        `scope \`${scope}\` is not a valid scope (no spaces, \`"\` or \`\\\`)`,
      );
    }
  });
  const groupsClaim = f.string('groups_claim') ?? DEFAULT_GROUPS_CLAIM;
  if (groupsClaim === '') error(f.at('groups_claim'), 'groups_claim must not be empty');
  const clockSkewSec =
    f.integerInRange('clock_skew_sec', 0, 300, 'clock_skew_sec') ?? DEFAULT_CLOCK_SKEW_SEC;

  if (issuer === null) return null;
  return { issuer, resource, scopes: [...new Set(scopes)], groupsClaim, clockSkewSec, jwksUri };
}

/** Why `value` is no acceptable issuer/resource/JWKS URL, or null. */
function urlProblem(value: string, noQuery: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (/[\s"\\<>]/.test(value)) return 'must not contain spaces, quotes, `\\`, `<` or `>`';
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) {
      return 'must use https (http only for 127.0.0.1, localhost or [::1])';
    }
  } else if (url.protocol !== 'https:') return 'must use https';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (value.includes('#')) return 'must not have a fragment';
  if (noQuery && value.includes('?')) return 'must not have a query';
  return null;
}
