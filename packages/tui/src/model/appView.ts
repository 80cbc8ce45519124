/**
 * MCP Apps in the TUI: which tool has an app UI (`_meta.ui.resourceUri`, or the deprecated flat
 * `_meta["ui/resourceUri"]`), its marker in tool listings, the tools `/app` may mean, and the
 * HTML file `/app` writes — the resource's HTML with a Content-Security-Policy built from its
 * declared `_meta.ui.csp` (the MCP Apps default when none), so a browser opening the file holds
 * the app to what it declared, as a host's sandbox would.
 */

import type { Registration } from './registrations.js';

/** The marker after a tool's name in listings. */
export const APP_MARKER = '[app]';

/** The UI resource a tool names, if any. */
export function toolAppUri(tool: unknown): string | undefined {
  const meta = record(record(tool)?.['_meta']);
  const nested = record(meta?.['ui'])?.['resourceUri'];
  if (typeof nested === 'string') return nested;
  const flat = meta?.['ui/resourceUri'];
  return typeof flat === 'string' ? flat : undefined;
}

/** `name [app]` for a tool with an app UI, else `name`. */
export function markedToolName(name: string, tool: unknown): string {
  return toolAppUri(tool) === undefined ? name : `${name} ${APP_MARKER}`;
}

export interface AppTarget {
  readonly server: string;
  readonly environmentId: string | null;
  readonly tool: string;
  readonly uri: string;
}

/**
 * The registrations whose tool `tool` (of `server`, when given; of scope `environmentId` —
 * null: thread-wide — when given) has an app UI, in the registrations' order.
 */
export function appTargets(
  regs: readonly Registration[],
  tool: string,
  server: string | null,
  environmentId: string | null | undefined,
): AppTarget[] {
  return regs.flatMap((r) => {
    if (server !== null && r.name !== server) return [];
    if (environmentId !== undefined && r.environmentId !== environmentId) return [];
    const uri = toolAppUri(r.status?.tools[tool]);
    return uri === undefined ? [] : [{ server: r.name, environmentId: r.environmentId, tool, uri }];
  });
}

/** The policy of the resource's declared `_meta.ui.csp` (MCP Apps' restrictive default). */
export function appCsp(meta: unknown): string {
  const csp = record(record(record(meta)?.['ui'])?.['csp']);
  const list = (key: string) =>
    (Array.isArray(csp?.[key]) ? (csp[key] as unknown[]) : [])
      .filter((d): d is string => typeof d === 'string' && /^[A-Za-z0-9*.:/[\]_-]+$/.test(d))
      .join(' ');
  const resources = list('resourceDomains');
  const extra = (s: string) => (s === '' ? '' : ` ${s}`);
  const connect = list('connectDomains');
  const frames = list('frameDomains');
  const base = list('baseUriDomains');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${extra(resources)}`,
    `style-src 'self' 'unsafe-inline'${extra(resources)}`,
    `img-src 'self' data:${extra(resources)}`,
    `font-src 'self'${extra(resources)}`,
    `media-src 'self' data:${extra(resources)}`,
    "object-src 'none'",
    `connect-src ${connect === '' ? "'none'" : connect}`,
    `frame-src ${frames === '' ? "'none'" : frames}`,
    `base-uri ${base === '' ? "'self'" : base}`,
  ].join('; ');
}

/** The HTML with the policy as the document's first `<meta>` (before anything it loads). */
export function withCsp(html: string, policy: string): string {
  const tag = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  const head = /<head[^>]*>/i.exec(html);
  if (head !== null) {
    const at = head.index + head[0].length;
    return `${html.slice(0, at)}${tag}${html.slice(at)}`;
  }
  return `${tag}${html}`;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
