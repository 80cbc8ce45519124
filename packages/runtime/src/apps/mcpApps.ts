/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): what the runtime declares to
 * servers when its host renders app UIs, and how a tool names its UI resource — `_meta.ui.
 * resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]` (both as
 * `@modelcontextprotocol/ext-apps` 2.0 defines them). Pure functions over plain JSON; the gateway
 * rewrites the URIs, the app-server carries them, the TUI shows them.
 */

/** The extension's key in `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The deprecated flat `_meta` key naming a tool's UI resource. */
export const LEGACY_UI_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The client capability a host that renders MCP Apps declares. */
export function mcpAppsClientExtensions(): Record<string, Record<string, unknown>> {
  return { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } };
}

/** Whether declared capabilities (a client's or a server's) include MCP Apps HTML. */
export function declaresMcpApps(capabilities: unknown): boolean {
  const extensions = objectOr(objectOr(capabilities)?.['extensions']);
  const ui = objectOr(extensions?.[MCP_APPS_EXTENSION]);
  if (ui === undefined) return false;
  const mimeTypes = ui['mimeTypes'];
  // A server's declaration carries no MIME types; a client's must list the HTML profile.
  return !Array.isArray(mimeTypes) || mimeTypes.includes(MCP_APP_MIME_TYPE);
}

/** The UI resource a tool's `_meta` names (`ui.resourceUri` first, then the flat key). */
export function toolUiResourceUri(meta: unknown): string | undefined {
  const object = objectOr(meta);
  const nested = objectOr(object?.['ui'])?.['resourceUri'];
  if (typeof nested === 'string') return nested;
  const flat = object?.[LEGACY_UI_RESOURCE_URI_KEY];
  return typeof flat === 'string' ? flat : undefined;
}

/**
 * Whether a tool is for its app only (`_meta.ui.visibility` without `"model"`): a host must not
 * show it to its model.
 */
export function isAppOnlyTool(meta: unknown): boolean {
  const visibility = objectOr(objectOr(meta)?.['ui'])?.['visibility'];
  return Array.isArray(visibility) && !visibility.includes('model');
}

/**
 * A tool's `_meta` with every UI resource URI it names (both keys) passed through `rewrite`;
 * the other keys, and the `ui` object's other keys, unchanged. A `_meta` naming none is
 * returned as it is.
 */
export function rewriteToolUiResourceUri(meta: unknown, rewrite: (uri: string) => string): unknown {
  const object = objectOr(meta);
  if (object === undefined || toolUiResourceUri(object) === undefined) return meta;
  const out: Record<string, unknown> = { ...object };
  const ui = objectOr(object['ui']);
  if (ui !== undefined && typeof ui['resourceUri'] === 'string') {
    out['ui'] = { ...ui, resourceUri: rewrite(ui['resourceUri']) };
  }
  const flat = object[LEGACY_UI_RESOURCE_URI_KEY];
  if (typeof flat === 'string') out[LEGACY_UI_RESOURCE_URI_KEY] = rewrite(flat);
  return out;
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** What a session declares to servers for its `mcpApps` option (undefined: nothing). */
export function appsExtensions(
  option: boolean | (() => boolean) | undefined,
): (() => Record<string, Record<string, unknown>> | undefined) | undefined {
  if (option === undefined || option === false) return undefined;
  return () => (option === true || option() ? mcpAppsClientExtensions() : undefined);
}
