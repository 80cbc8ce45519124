/**
 * RFC 9728 OAuth protected-resource metadata for the gateway: which resource URI the gateway is
 * (the `aud` its tokens must carry, RFC 8707), where its metadata document lives, and the
 * document itself. Clients find the authorization server through it: a `401` names the
 * document's absolute URL in `resource_metadata`, and the HTTP listener serves the document
 * without a token (`publicDocument`).
 */

import type { PublicDocument } from './authenticator.js';

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** The path of the gateway's endpoint, appended to a listen URL given without a path. */
const DEFAULT_ENDPOINT_PATH = '/mcp';

/**
 * The resource URI: the configured one, else the listen URL — the URL the gateway listens on
 * (`http://127.0.0.1:PORT/mcp`) or its base (`https://host:port`, then `/mcp` is appended).
 */
export function resolveResource(configured: string | null, listenUrl: string): string {
  if (configured !== null) return configured;
  const url = new URL(listenUrl);
  url.hash = '';
  url.search = '';
  if (url.pathname === '/' || url.pathname === '') url.pathname = DEFAULT_ENDPOINT_PATH;
  return url.href;
}

/** The metadata's path for `resource`: the well-known prefix inserted before its path. */
export function metadataPath(resource: string): string {
  const path = new URL(resource).pathname;
  return path === '/' ? PROTECTED_RESOURCE_WELL_KNOWN : `${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
}

/** The metadata's absolute URL (`resource_metadata` of every challenge). */
export function metadataUrl(resource: string): string {
  return new URL(metadataPath(resource), resource).href;
}

export interface ProtectedResourceInfo {
  readonly resource: string;
  readonly issuer: string;
  readonly scopes: readonly string[];
}

/** Serves the document at its path-inserted URL and at the bare well-known path. */
export class ProtectedResourceMetadata {
  readonly url: string;
  private readonly paths: ReadonlySet<string>;
  private readonly document: PublicDocument;

  constructor(info: ProtectedResourceInfo) {
    this.url = metadataUrl(info.resource);
    this.paths = new Set([metadataPath(info.resource), PROTECTED_RESOURCE_WELL_KNOWN]);
    const body = {
      resource: info.resource,
      authorization_servers: [info.issuer],
      scopes_supported: [...info.scopes],
      bearer_methods_supported: ['header'],
      resource_name: 'mcprt gateway',
    };
    this.document = { contentType: 'application/json', body: `${JSON.stringify(body)}\n` };
  }

  /** The document when `path` is one of its paths, else null. */
  publicDocument(path: string): PublicDocument | null {
    return this.paths.has(path) ? this.document : null;
  }
}
