/**
 * `mcpServer/tool/search` (mcprt extension): the tool search of a thread's view, for hosts that
 * defer tool definitions themselves — the same BM25 index and hits as the gateway's
 * `search_tools` meta-tool (docs/tool-shaping.md), named as the view names them.
 */

import { z } from 'zod';

/** Default and largest `limit` (the runtime's `DEFAULT_SEARCH_LIMIT` / `MAX_SEARCH_LIMIT`). */
const TOOL_SEARCH_DEFAULT_LIMIT = 8;
const TOOL_SEARCH_MAX_LIMIT = 50;

export const McpServerToolSearchParams = z
  .object({
    threadId: z.string(),
    query: z
      .string()
      .min(1)
      .describe('What the tool should do, in plain words (a blank query is an invalid request).'),
    limit: z
      .int()
      .min(1)
      .max(TOOL_SEARCH_MAX_LIMIT)
      .nullish()
      .describe(
        `How many tools to return at most (default ${TOOL_SEARCH_DEFAULT_LIMIT}, at most ${TOOL_SEARCH_MAX_LIMIT}).`,
      ),
    view: z
      .string()
      .min(1)
      .nullish()
      .describe(
        "The view to search. Omitted or null: the thread's own view (the whole inventory when it has none). Calls are still checked against the thread's own view.",
      ),
  })
  .meta({ title: 'McpServerToolSearchParams' });
export type McpServerToolSearchParams = z.infer<typeof McpServerToolSearchParams>;

/** One tool found, best first. */
export const McpToolSearchHit = z
  .object({
    name: z.string().describe('The model-visible name in the searched view.'),
    server: z.string(),
    environmentId: z.string().nullable().describe('null: a thread-wide registration.'),
    description: z.string().describe('The description, cut at a word near 200 characters.'),
    score: z.number().describe('Relevance (higher is better); comparable within one search only.'),
  })
  .meta({ id: 'McpToolSearchHit' });
export type McpToolSearchHit = z.infer<typeof McpToolSearchHit>;

export const McpServerToolSearchResult = z
  .object({ tools: z.array(McpToolSearchHit) })
  .meta({ title: 'McpServerToolSearchResult' });
export type McpServerToolSearchResult = z.infer<typeof McpServerToolSearchResult>;
