/**
 * Finds the authorization server's JWKS URL from its metadata: RFC 8414
 * `/.well-known/oauth-authorization-server`, then OpenID Connect Discovery's
 * `/.well-known/openid-configuration` (both path-inserted for an issuer with a path, then the
 * OpenID path-appended form — the order of the MCP authorization spec). A document counts only
 * when its `issuer` is the configured issuer, text for text (RFC 8414 §3.3: metadata names its
 * own issuer, so a document for another issuer cannot hand out keys), and its `jwks_uri` is
 * https (http only on loopback). Failures are typed (`IssuerDiscoveryError`, `code`).
 */

/** A secure-enough URL for keys: https, or http on a loopback host. */
export function isSecureUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export type IssuerDiscoveryErrorCode = 'discovery_failed';

export class IssuerDiscoveryError extends Error {
  override readonly name = 'IssuerDiscoveryError';
  readonly code: IssuerDiscoveryErrorCode = 'discovery_failed';
}

/** The metadata URLs to try for `issuer`, in order. */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const at = (wellKnown: string, suffix: string): string =>
    new URL(`${wellKnown}${suffix}`, url.origin).href;
  if (path === '') {
    return [
      at('/.well-known/oauth-authorization-server', ''),
      at('/.well-known/openid-configuration', ''),
    ];
  }
  return [
    at('/.well-known/oauth-authorization-server', path),
    at('/.well-known/openid-configuration', path),
    at(path, '/.well-known/openid-configuration'),
  ];
}

const MAX_METADATA_BYTES = 256 * 1024;

export interface DiscoveryOptions {
  /** Per request (default 5 s). */
  readonly timeoutMs?: number;
}

/** The issuer's `jwks_uri`; throws {@link IssuerDiscoveryError} naming every attempt. */
export async function discoverJwksUri(
  issuer: string,
  options: DiscoveryOptions = {},
): Promise<string> {
  const attempts: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    try {
      return await readJwksUri(url, issuer, options.timeoutMs ?? 5000);
    } catch (error) {
      attempts.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new IssuerDiscoveryError(
    `cannot discover the authorization server ${issuer}: ${attempts.join('; ')}`,
  );
}

async function readJwksUri(url: string, issuer: string, timeoutMs: number): Promise<string> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const text = await response.text();
  if (text.length > MAX_METADATA_BYTES) throw new Error('the document is too large');
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch {
    throw new Error('the document is not JSON');
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new Error('the document is not a JSON object');
  }
  const record = metadata as Record<string, unknown>;
  if (record['issuer'] !== issuer) throw new Error('the document names another issuer');
  const jwksUri = record['jwks_uri'];
  if (typeof jwksUri !== 'string') throw new Error('the document has no jwks_uri');
  if (!isSecureUrl(jwksUri)) throw new Error('its jwks_uri is not https');
  return jwksUri;
}
