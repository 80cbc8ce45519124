/**
 * A whole list through the SDK's own listing on the 2026-07-28 revision: it walks the pages,
 * keeps the aggregate in its response cache under the result's `ttlMs` / `cacheScope` (a fresh
 * one is served without a round trip unless `refresh`), and for tools also feeds its
 * `Mcp-Param-*` mirroring and drops tools whose `x-mcp-header` declarations are invalid.
 */

import type { Client } from '@modelcontextprotocol/client';

import type { ListKind, WholeList } from './inventorySync.js';
import type { RequestLimits } from './timeouts.js';
import { requestOptions } from './timeouts.js';

export async function listWhole(
  client: Client,
  kind: ListKind,
  limits: RequestLimits,
  refresh: boolean,
): Promise<WholeList> {
  const options = { ...requestOptions(limits), cacheMode: refresh ? 'refresh' : 'use' } as const;
  const result =
    kind === 'tools'
      ? await client.listTools(undefined, options)
      : kind === 'resources'
        ? await client.listResources(undefined, options)
        : kind === 'resourceTemplates'
          ? await client.listResourceTemplates(undefined, options)
          : await client.listPrompts(undefined, options);
  const items = (result as unknown as Record<string, unknown>)[kind];
  const ttlMs = (result as { ttlMs?: unknown }).ttlMs;
  return {
    items: Array.isArray(items) ? items : [],
    ttlMs: typeof ttlMs === 'number' && ttlMs > 0 ? ttlMs : 0,
  };
}
