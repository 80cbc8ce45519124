/**
 * MCP Apps through the gateway (docs/gateway.md, "MCP Apps"). A tool's UI resource
 * (`_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`) is a `ui://` URI,
 * and hosts render only `ui://` resources, so its per-scope form stays one:
 *
 *   ui://mcprt/env/<environmentId>/<server>/<original URI without "ui://">
 *   ui://mcprt/thread/<server>/<original URI without "ui://">
 *
 * (environment id and server percent-encoded, like resourceUri.ts's `mcprt://` form, of which
 * this is the `ui://` twin: the same URI of two environments is two resources, and reading either
 * form reaches that registration). Also here: what the gateway advertises (the extension, when a
 * selected server lists a UI tool), whether a client renders apps, and hiding app-only tools from
 * clients that do not.
 */

import {
  declaresMcpApps,
  isAppOnlyTool,
  MCP_APP_MIME_TYPE,
  MCP_APPS_EXTENSION,
  rewriteToolUiResourceUri,
  toolUiResourceUri,
} from '@mcprt/runtime';
import type { RegistrationScope, ToolView } from '@mcprt/runtime';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { Server, ServerContext } from '@modelcontextprotocol/server';

import type { Catalog } from './catalog.js';

const UI_SCHEME = 'ui://';
const ENV_FORM = /^ui:\/\/mcprt\/env\/([^/]+)\/([^/]+)\/([\s\S]*)$/;
const THREAD_FORM = /^ui:\/\/mcprt\/thread\/([^/]+)\/([\s\S]*)$/;

/** The gateway's `ui://` form of a server's `ui://` URI (undefined: not a `ui://` URI). */
export function wrapUiUri(scope: RegistrationScope, uri: string): string | undefined {
  if (!uri.startsWith(UI_SCHEME)) return undefined;
  const rest = uri.slice(UI_SCHEME.length);
  const server = encodeURIComponent(scope.name);
  return scope.environmentId === null
    ? `ui://mcprt/thread/${server}/${rest}`
    : `ui://mcprt/env/${encodeURIComponent(scope.environmentId)}/${server}/${rest}`;
}

/** The scope and server URI of a wrapped `ui://` URI, or null when `uri` is not one. */
export function unwrapUiUri(uri: string): { scope: RegistrationScope; uri: string } | null {
  try {
    const env = ENV_FORM.exec(uri);
    if (env) {
      const scope = {
        environmentId: decodeURIComponent(env[1]!),
        name: decodeURIComponent(env[2]!),
      };
      return { scope, uri: `${UI_SCHEME}${env[3]!}` };
    }
    const thread = THREAD_FORM.exec(uri);
    if (thread) {
      const scope = { environmentId: null, name: decodeURIComponent(thread[1]!) };
      return { scope, uri: `${UI_SCHEME}${thread[2]!}` };
    }
  } catch {
    return null; // malformed percent-encoding: not one of ours
  }
  return null;
}

/** A listed tool's `_meta` with its UI resource URIs in the gateway's form for its scope. */
export function gatewayToolMeta(
  meta: unknown,
  scope: RegistrationScope,
  wrap: (scope: RegistrationScope, uri: string) => string,
): unknown {
  return rewriteToolUiResourceUri(meta, (uri) => wrap(scope, uri));
}

/** The extension as the gateway advertises it, when a listed tool of `view` has a UI. */
export function appsCapability(view: ToolView): Record<string, { mimeTypes: string[] }> | null {
  const offers = view.listed.some((t) => toolUiResourceUri(t.entry.tool['_meta']) !== undefined);
  return offers ? { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } : null;
}

/** Whether the client of a request renders MCP Apps (its envelope's, else its handshake's). */
export function clientRendersApps(envelope: unknown, handshake: unknown): boolean {
  const fromEnvelope =
    typeof envelope === 'object' && envelope !== null
      ? (envelope as Record<string, unknown>)[CLIENT_CAPABILITIES_META_KEY]
      : undefined;
  return declaresMcpApps(fromEnvelope ?? handshake);
}

/** Whether a raw client message (an `initialize`, or any 2026-07-28 request) declares apps. */
export function messageDeclaresApps(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return false;
  const p = params as { capabilities?: unknown; _meta?: unknown };
  return clientRendersApps(p._meta, p.capabilities);
}

/** The tools a client is shown: a client that does not render apps never sees app-only ones. */
export function toolsForClient<T extends { _meta?: unknown }>(
  server: Server,
  ctx: ServerContext,
  tools: readonly T[],
): T[] {
  const renders = clientRendersApps(ctx.mcpReq.envelope, server.getClientCapabilities());
  return renders ? [...tools] : tools.filter((t) => !isAppOnlyTool(t._meta));
}

/**
 * The server's capabilities gain the extension whenever a handshake (`initialize`,
 * `server/discover`) is answered while a listed tool of the client's catalog has a UI: the SDK
 * reads them through `getCapabilities()` at that moment.
 */
export function advertiseApps(server: Server, catalog: Catalog): void {
  const capabilities = server.getCapabilities.bind(server);
  server.getCapabilities = () => {
    const own = capabilities();
    const apps = appsCapability(catalog.view());
    return apps === null ? own : { ...own, extensions: { ...own.extensions, ...apps } };
  };
}
