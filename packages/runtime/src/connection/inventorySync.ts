/**
 * A connection's copy of the server's lists — tools, resources, resource templates — taken at
 * startup and kept current, and live listings (prompts too): every list is walked page by page
 * by one generic lister (duplicate cursors are an error), and `list_changed` notifications
 * trigger refreshes coalesced to one in flight plus one queued, so a flooding server cannot make
 * us list in a loop. Pages come from a `PageSource`, the one seam where a response cache stands
 * in front of the server: on 2026-07-28 the SDK's, which honours each result's `ttlMs` /
 * `cacheScope` — a live listing within its ttl is served without a round trip. The tools copy
 * kept here is refreshed at startup and on `list_changed`, and, when its listing carried a
 * positive `ttlMs`, again in the background the first time it is needed after that ttl
 * (`revalidate`). A `ttlMs` of 0 (the default) leaves it to `list_changed`.
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

/** After a failed background refresh of stale tools, how long until the next try. */
const RETRY_STALE_MS = 5_000;
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

/** A whole list and its freshness (`ttlMs`, 0 when none was sent). */
export interface WholeList {
  readonly items: readonly unknown[];
  readonly ttlMs: number;
}

/**
 * Where pages come from: the server, page by page — or, on 2026-07-28, the SDK's own listing
 * through its response cache (`refresh`: always ask the server; otherwise a fresh cached list is
 * served; tools: it also keeps them for `Mcp-Param-*` mirroring and drops invalid ones). `whole`
 * returns null when it does not apply.
 */
export interface PageSource {
  readonly fetchPage: PageFetcher;
  readonly whole?: (
    kind: ListKind,
    limits: RequestLimits,
    refresh: boolean,
  ) => Promise<WholeList> | null;
}

export class InventorySync {
  tools: readonly ToolDefinition[] = [];
  resources: readonly McpResource[] = [];
  resourceTemplates: readonly McpResourceTemplate[] = [];
  /** Why the last resource listing failed (the server still serves its tools), or null. */
  resourcesError: string | null = null;
  private readonly refreshes: Coalescer;
  private readonly toolRefreshes: Coalescer;
  /** When the tools copy goes stale (its listing's positive `ttlMs`); undefined: never. */
  private toolsStaleAt: number | undefined;

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
    this.toolRefreshes = new Coalescer(async () => {
      if (follow.stopped()) return;
      const before = JSON.stringify(this.tools);
      try {
        this.tools = await this.listAll('tools', follow.limits(), true);
      } catch {
        this.toolsStaleAt = Date.now() + RETRY_STALE_MS; // the copy is kept; asked again later
        return;
      }
      if (JSON.stringify(this.tools) !== before) follow.onChanged();
    });
  }

  /**
   * Every item of one list (none when the server lacks its capability): page by page, or the
   * SDK's listing (`refresh`: never from its cache).
   */
  async listAll<K extends ListKind>(
    kind: K,
    limits: RequestLimits,
    refresh = false,
  ): Promise<ListItems[K][]> {
    const { method, field, capability } = LISTS[kind];
    if (!this.capabilities()?.[capability]) return [];
    const whole = this.source.whole?.(kind, limits, refresh);
    if (whole) {
      const list = await whole;
      if (kind === 'tools')
        this.toolsStaleAt = list.ttlMs > 0 ? Date.now() + list.ttlMs : undefined;
      return [...list.items] as ListItems[K][];
    }
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
    this.tools = caps['tools'] ? await this.listAll('tools', limits, true) : [];
    if (caps['resources']) {
      // Resources are optional extras: a server whose listing fails still serves its tools.
      const [resources, templates] = await Promise.allSettled([
        this.listAll('resources', limits, true),
        this.listAll('resourceTemplates', limits, true),
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

  /**
   * The tools copy is needed: past its listing's `ttlMs`, take the list again in the background
   * (coalesced; `onChanged` when it differs). True when a refresh was started.
   */
  revalidate(): boolean {
    if (this.toolsStaleAt === undefined || Date.now() < this.toolsStaleAt) return false;
    this.toolsStaleAt = undefined;
    void this.toolRefreshes.run();
    return true;
  }
}

function errorText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
