/**
 * A connection's copy of the server's lists — tools, resources, resource templates — taken at
 * startup and kept current, and live listings (prompts too): every list is walked page by page
 * by one generic lister (duplicate cursors are an error), and `list_changed` notifications
 * trigger refreshes coalesced to one in flight plus one queued, so a flooding server cannot make
 * us list in a loop. Pages come from a `PageSource`, the one seam where a response cache stands
 * in front of the server.
 */

import { Coalescer } from '@mcprt/base';

import type {
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  ServerCapabilities,
  ToolDefinition,
} from './mcpTypes.js';
import { collectPages } from './paging.js';
import type { RequestLimits } from './timeouts.js';

/**
 * The lists a connection knows: each one's method, the result field holding a page, and the
 * capability a server must advertise for the list to exist (none: the list is empty).
 */
const LISTS = {
  tools: { method: 'tools/list', field: 'tools', capability: 'tools' },
  resources: { method: 'resources/list', field: 'resources', capability: 'resources' },
  resourceTemplates: {
    method: 'resources/templates/list',
    field: 'resourceTemplates',
    capability: 'resources',
  },
  prompts: { method: 'prompts/list', field: 'prompts', capability: 'prompts' },
} as const;

export type ListKind = keyof typeof LISTS;
export type ListMethod = (typeof LISTS)[ListKind]['method'];

/** The item type of each list. */
export interface ListItems {
  readonly tools: ToolDefinition;
  readonly resources: McpResource;
  readonly resourceTemplates: McpResourceTemplate;
  readonly prompts: McpPrompt;
}

/** Fetch one page of a list method (`cursor` undefined: the first page); the raw result. */
export type PageFetcher = (
  method: ListMethod,
  cursor: string | undefined,
  limits: RequestLimits,
) => Promise<Readonly<Record<string, unknown>>>;

/**
 * Where pages come from: the server, page by page — or, for a list the SDK itself must see whole
 * (2026-07-28 tools: it caches them for `Mcp-Param-*` mirroring and drops invalid ones), the
 * SDK's own listing (`whole` returns null when it does not apply).
 */
export interface PageSource {
  readonly fetchPage: PageFetcher;
  readonly whole?: (kind: ListKind, limits: RequestLimits) => Promise<readonly unknown[]> | null;
}

export class InventorySync {
  tools: readonly ToolDefinition[] = [];
  resources: readonly McpResource[] = [];
  resourceTemplates: readonly McpResourceTemplate[] = [];
  /** Why the last resource listing failed (the server still serves its tools), or null. */
  resourcesError: string | null = null;
  private readonly refreshes: Coalescer;

  constructor(
    private readonly source: PageSource,
    private readonly capabilities: () => ServerCapabilities | undefined,
    /** After `list_changed`: the refresh's bounds, whether to stop, and who to tell. */
    follow: {
      readonly limits: () => RequestLimits;
      readonly stopped: () => boolean;
      readonly onChanged: () => void;
    },
  ) {
    this.refreshes = new Coalescer(async () => {
      if (follow.stopped()) return;
      await this.refresh(follow.limits()).then(follow.onChanged, () => undefined);
    });
  }

  /** Every item of one list, page by page (none when the server lacks its capability). */
  async listAll<K extends ListKind>(kind: K, limits: RequestLimits): Promise<ListItems[K][]> {
    const { method, field, capability } = LISTS[kind];
    if (!this.capabilities()?.[capability]) return [];
    const whole = this.source.whole?.(kind, limits);
    if (whole) return [...(await whole)] as ListItems[K][];
    return collectPages(method, async (cursor) => {
      const page = await this.source.fetchPage(method, cursor, limits);
      const next = page['nextCursor'];
      return {
        items: (page[field] ?? []) as ListItems[K][],
        nextCursor: typeof next === 'string' ? next : undefined,
      };
    });
  }

  /** Take every list the server's capabilities offer. Throws when the tools cannot be listed. */
  async refresh(limits: RequestLimits): Promise<void> {
    const caps = this.capabilities() ?? {};
    this.tools = caps['tools'] ? await this.listAll('tools', limits) : [];
    if (caps['resources']) {
      // Resources are optional extras: a server whose listing fails still serves its tools.
      const [resources, templates] = await Promise.allSettled([
        this.listAll('resources', limits),
        this.listAll('resourceTemplates', limits),
      ]);
      this.resources = resources.status === 'fulfilled' ? resources.value : [];
      this.resourceTemplates = templates.status === 'fulfilled' ? templates.value : [];
      this.resourcesError =
        resources.status === 'rejected'
          ? errorText(resources.reason)
          : templates.status === 'rejected'
            ? errorText(templates.reason)
            : null;
    }
  }

  /** The server said a list changed: refresh (coalesced), then tell `onChanged`. */
  listChanged(): void {
    void this.refreshes.run();
  }
}

function errorText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
