/**
 * The `[mcp_servers.<name>.oauth]` table: the pre-registered client and callback (Codex's keys)
 * and mcprt's machine grants and extensions — client credentials (a client secret or a private
 * key JWT), workload identity (SEP-1933 JWT bearer), enterprise-managed authorization (SEP-990,
 * an IdP's ID token traded for an ID-JAG) and DPoP (SEP-1932). Secrets are never written here:
 * a key names the environment variable or the file (0600) that holds each one, read when a token
 * is requested. A remote host's own config may not name secrets on this machine at all.
 */

import type { Fields } from './fields.js';
import { expectedOneOf } from './fields.js';
import { notLent } from './lending.js';
import type { KeyPath } from './locate.js';
import type {
  DpopSetting,
  IdentityProviderConfig,
  OAuthClientConfig,
  OAuthGrant,
  RemoteTrust,
  SecretSource,
} from './types.js';

export const OAUTH_GRANTS: readonly OAuthGrant[] = [
  'authorization_code',
  'client_credentials',
  'workload_identity',
  'enterprise_managed',
];
export const DPOP_SETTINGS: readonly DpopSetting[] = ['auto', 'required', 'off'];

/** JWS algorithms a private-key JWT may be signed with (`signing_algorithm`). */
const SIGNING_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

const OAUTH_KEYS = new Set([
  'client_id',
  'callback_url',
  'callback_port',
  'grant',
  'dpop',
  'issuer',
  'client_secret_env_var',
  'client_secret_file',
  'private_key_file',
  'signing_algorithm',
  'assertion_env_var',
  'assertion_file',
  'identity_provider',
]);

const IDP_KEYS = new Set([
  'issuer',
  'token_endpoint',
  'client_id',
  'client_secret_env_var',
  'client_secret_file',
  'id_token_env_var',
  'id_token_file',
]);

type Report = (path: KeyPath, problem: string) => void;

export interface OAuthReadOptions {
  /** Set for a table from a remote host's own config: what this machine lends it. */
  readonly untrusted: RemoteTrust | null;
  /** The contributing environment (for messages). */
  readonly environmentId: string | null;
}

export function readOAuth(
  f: Fields,
  error: Report,
  warn: Report,
  options: OAuthReadOptions,
): OAuthClientConfig | null {
  const oauth = f.subTable('oauth');
  if (oauth === null) return null;
  oauth.unknownKeys(OAUTH_KEYS, warn);
  const grant = oauth.enumeration('grant', OAUTH_GRANTS) ?? 'authorization_code';
  const clientId = oauth.string('client_id');
  const secret = (base: string, owner: Fields) => readSecret(owner, base, error, options);
  const clientSecret = secret('client_secret', oauth);
  const privateKey = readFilePath(oauth, 'private_key_file', error, options);
  const assertion = secret('assertion', oauth);
  const signingAlgorithm = oauth.string('signing_algorithm');
  if (signingAlgorithm !== null && !SIGNING_ALGORITHMS.includes(signingAlgorithm)) {
    error(
      oauth.at('signing_algorithm'),
      `unknown variant \`${signingAlgorithm}\`, ${expectedOneOf(SIGNING_ALGORITHMS)}`,
    );
  }
  const identityProvider = readIdentityProvider(oauth, error, warn, options);
  const issuer = oauth.string('issuer');
  if (issuer !== null && !isHttpUrl(issuer))
    error(oauth.at('issuer'), `issuer must be an http(s) URL, got \`${issuer}\``);

  // What each grant needs, and what it cannot use.
  const need = (ok: boolean, problem: string) => {
    if (!ok) error(oauth.path, problem);
  };
  const unused = (key: string, why: string) => {
    if (oauth.has(key)) error(oauth.at(key), `${key} ${why}`);
  };
  const forGrant = `with grant = "${grant}"`;
  if (grant !== 'authorization_code' && clientId === null && oauth.has('client_id') === false) {
    need(false, `grant = "${grant}" needs client_id`);
  }
  switch (grant) {
    case 'authorization_code':
      for (const key of ['private_key_file', 'signing_algorithm', 'assertion_env_var'])
        unused(key, `is not used ${forGrant}`);
      unused('assertion_file', `is not used ${forGrant}`);
      unused('identity_provider', `is not used ${forGrant}`);
      if (clientSecret !== null && clientId === null && !oauth.has('client_id'))
        need(false, 'a client secret needs client_id (the pre-registered client it belongs to)');
      break;
    case 'client_credentials':
      need(
        clientSecret !== null || privateKey !== null || hasSecretKey(oauth, 'client_secret'),
        'grant = "client_credentials" needs client_secret_env_var, client_secret_file or private_key_file',
      );
      if (privateKey !== null && clientSecret !== null)
        error(
          oauth.at('private_key_file'),
          'private_key_file and a client secret cannot both be set (choose private_key_jwt or client_secret_basic)',
        );
      if (signingAlgorithm !== null && !oauth.has('private_key_file'))
        error(oauth.at('signing_algorithm'), 'signing_algorithm needs private_key_file');
      for (const key of ['assertion_env_var', 'assertion_file', 'identity_provider'])
        unused(key, `is not used ${forGrant}`);
      break;
    case 'workload_identity':
      need(
        assertion !== null || hasSecretKey(oauth, 'assertion'),
        'grant = "workload_identity" needs assertion_file or assertion_env_var (the workload\'s JWT)',
      );
      for (const key of [
        'client_secret_env_var',
        'client_secret_file',
        'private_key_file',
        'signing_algorithm',
        'identity_provider',
      ])
        unused(key, `is not used ${forGrant}`);
      break;
    case 'enterprise_managed':
      need(
        clientSecret !== null || hasSecretKey(oauth, 'client_secret'),
        'grant = "enterprise_managed" needs client_secret_env_var or client_secret_file',
      );
      need(
        oauth.has('identity_provider'),
        'grant = "enterprise_managed" needs an [identity_provider] table (issuer or token_endpoint, client_id, id_token_env_var or id_token_file)',
      );
      for (const key of ['private_key_file', 'signing_algorithm', 'assertion_env_var'])
        unused(key, `is not used ${forGrant}`);
      unused('assertion_file', `is not used ${forGrant}`);
      break;
  }

  return {
    clientId,
    callbackUrl: oauth.string('callback_url'),
    callbackPort: oauth.integerInRange('callback_port', 1, 65535, 'callback_port'),
    grant,
    dpop: oauth.enumeration('dpop', DPOP_SETTINGS) ?? 'auto',
    issuer,
    clientSecret,
    privateKey:
      privateKey === null ? null : { file: privateKey, algorithm: signingAlgorithm ?? null },
    assertion,
    identityProvider,
  };
}

function hasSecretKey(f: Fields, base: string): boolean {
  return f.has(`${base}_env_var`) || f.has(`${base}_file`);
}

/** `<base>_env_var` or `<base>_file` (not both). */
function readSecret(
  f: Fields,
  base: string,
  error: Report,
  options: OAuthReadOptions,
): SecretSource | null {
  const envKey = `${base}_env_var`;
  const fileKey = `${base}_file`;
  const envVar = f.string(envKey);
  const file = readFilePath(f, fileKey, error, options);
  if (envVar !== null && f.has(fileKey)) {
    error(f.at(fileKey), `${envKey} and ${fileKey} cannot both be set`);
    return null;
  }
  if (envVar !== null) {
    if (options.untrusted !== null && !options.untrusted.envVars.includes(envVar)) {
      error(f.at(envKey), notLent(envVar, options.environmentId ?? ''));
      return null;
    }
    if (envVar.trim() === '') {
      error(f.at(envKey), `${envKey} must not be empty`);
      return null;
    }
    return { kind: 'env', name: envVar, key: keyName(f.at(envKey)) };
  }
  if (file !== null) return { kind: 'file', path: file, key: keyName(f.at(fileKey)) };
  return null;
}

/** An absolute path (or `~/…`) on this machine. */
function readFilePath(
  f: Fields,
  key: string,
  error: Report,
  options: OAuthReadOptions,
): string | null {
  const value = f.string(key);
  if (value === null) return null;
  if (options.untrusted !== null) {
    error(f.at(key), remoteSecretProblem(key));
    return null;
  }
  if (!(value.startsWith('/') || value.startsWith('~/'))) {
    error(f.at(key), `${key} must be an absolute path (or start with ~/), got \`${value}\``);
    return null;
  }
  return value;
}

function remoteSecretProblem(key: string): string {
  return `${key} is not allowed in a remote host's config: the file would be read on this machine, so declare the server in this machine's config.toml`;
}

/** The key path below `mcp_servers.<name>.` (`oauth.client_secret_file`), for messages. */
function keyName(path: KeyPath): string {
  const i = path.indexOf('oauth');
  return path
    .slice(i < 0 ? 0 : i)
    .map(String)
    .join('.');
}

function readIdentityProvider(
  oauth: Fields,
  error: Report,
  warn: Report,
  options: OAuthReadOptions,
): IdentityProviderConfig | null {
  const idp = oauth.subTable('identity_provider');
  if (idp === null) return null;
  idp.unknownKeys(IDP_KEYS, warn);
  const issuer = idp.string('issuer');
  const tokenEndpoint = idp.string('token_endpoint');
  const clientId = idp.string('client_id');
  const clientSecret = readSecret(idp, 'client_secret', error, options);
  const idToken = readSecret(idp, 'id_token', error, options);
  for (const [key, value] of [
    ['issuer', issuer],
    ['token_endpoint', tokenEndpoint],
  ] as const) {
    if (value !== null && !isHttpUrl(value))
      error(idp.at(key), `${key} must be an http(s) URL, got \`${value}\``);
  }
  if (issuer !== null && tokenEndpoint !== null)
    error(idp.at('token_endpoint'), 'issuer and token_endpoint cannot both be set');
  if (issuer === null && tokenEndpoint === null && !idp.has('issuer') && !idp.has('token_endpoint'))
    error(idp.path, 'identity_provider needs issuer (discovered) or token_endpoint');
  if (clientId === null && !idp.has('client_id'))
    error(idp.path, 'identity_provider needs client_id (this client at the IdP)');
  if (idToken === null && !idp.has('id_token_env_var') && !idp.has('id_token_file'))
    error(idp.path, 'identity_provider needs id_token_env_var or id_token_file');
  if (clientId === null || idToken === null || (issuer === null && tokenEndpoint === null))
    return null;
  return { issuer, tokenEndpoint, clientId, clientSecret, idToken };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
