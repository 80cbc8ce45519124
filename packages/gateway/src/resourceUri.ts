/**
 * The gateway's resource URIs: one namespace over every registration's resources, so the same
 * URI in two environments is two resources. The scheme wraps the server's own URI, verbatim, behind
 * its registration scope:
 *
 *   mcprt://env/<environmentId>/<server>/<original URI>    (a registration of an environment)
 *   mcprt://thread/<server>/<original URI>                 (a thread-wide registration)
 *
 * The environment id and server name are percent-encoded (`encodeURIComponent`), so they never
 * contain `/`; the original URI follows unchanged, so a wrapped resource template expands to
 * exactly the wrapped form of what the original template expands to. `unwrapResourceUri` is the
 * inverse of `wrapResourceUri` for every scope and every string. A `ui://` URI (an MCP App's) is
 * wrapped into the `ui://mcprt/…` twin of this form instead (uiResources.ts).
 */

import type { RegistrationScope } from '@mcprt/runtime';

import { unwrapUiUri, wrapUiUri } from './uiResources.js';

export const GATEWAY_URI_SCHEME = 'mcprt:';

/** The gateway's own status resource (every registration, its state and how to fix it). */
export const STATUS_RESOURCE_URI = 'mcprt://gateway/status';

export function wrapResourceUri(scope: RegistrationScope, uri: string): string {
  // A `ui://` resource (an MCP App) keeps its scheme: hosts render only those (uiResources.ts).
  const ui = wrapUiUri(scope, uri);
  if (ui !== undefined) return ui;
  const server = encodeURIComponent(scope.name);
  return scope.environmentId === null
    ? `mcprt://thread/${server}/${uri}`
    : `mcprt://env/${encodeURIComponent(scope.environmentId)}/${server}/${uri}`;
}

const ENV_FORM = /^mcprt:\/\/env\/([^/]+)\/([^/]+)\/([\s\S]*)$/;
const THREAD_FORM = /^mcprt:\/\/thread\/([^/]+)\/([\s\S]*)$/;

/** The scope and original URI of a wrapped URI, or null when `uri` is not one. */
export function unwrapResourceUri(uri: string): { scope: RegistrationScope; uri: string } | null {
  const ui = unwrapUiUri(uri);
  if (ui !== null) return ui;
  try {
    const env = ENV_FORM.exec(uri);
    if (env) {
      return {
        scope: { environmentId: decodeURIComponent(env[1]!), name: decodeURIComponent(env[2]!) },
        uri: env[3]!,
      };
    }
    const thread = THREAD_FORM.exec(uri);
    if (thread) {
      return {
        scope: { environmentId: null, name: decodeURIComponent(thread[1]!) },
        uri: thread[2]!,
      };
    }
  } catch {
    return null; // malformed percent-encoding: not one of ours
  }
  return null;
}
