/**
 * `thread/toolView/get` (mcprt extension): what a thread's view shows a model and what its tool
 * definitions cost in tokens — the runtime's `ToolView.cost()` (docs/tool-shaping.md) — so a host
 * (the TUI's `/mcp`) can show tokens per server and the totals with tool search off and on.
 */

import { z } from 'zod';

export const ThreadToolViewGetParams = z
  .object({
    threadId: z.string(),
    view: z
      .string()
      .min(1)
      .nullish()
      .describe(
        "The view to describe. Omitted or null: the thread's own view (the whole inventory when it has none).",
      ),
  })
  .meta({ title: 'ThreadToolViewGetParams' });
export type ThreadToolViewGetParams = z.infer<typeof ThreadToolViewGetParams>;

/** One registration's tools in the view. */
export const ToolViewServerCost = z
  .object({
    server: z.string(),
    environmentId: z.string().nullable().describe('null: a thread-wide registration.'),
    tools: z.int().describe('Its tools in the view.'),
    tokens: z.int().describe('What their definitions cost (o200k_base tokens).'),
  })
  .meta({ id: 'ToolViewServerCost' });
export type ToolViewServerCost = z.infer<typeof ToolViewServerCost>;

export const ThreadToolViewGetResult = z
  .object({
    view: z.string().nullable().describe('The view described; null: the whole inventory.'),
    tools: z.int().describe("The view's tools (of its connected servers)."),
    searching: z
      .boolean()
      .describe('Tool search is on: a model is listed the always_load tools and meta-tools.'),
    thresholdTokens: z
      .int()
      .nullable()
      .describe('`tool_search_threshold_tokens`; null without a view (no threshold).'),
    allTokens: z.int().describe('Every definition, as listed with search off.'),
    searchTokens: z
      .int()
      .describe('The always_load definitions plus the three meta-tools: what search on lists.'),
    listedTokens: z.int().describe('What is listed now (one of the two above).'),
    overThreshold: z
      .boolean()
      .describe('`tool_search = "off"` and the definitions are over the threshold.'),
    servers: z
      .array(ToolViewServerCost)
      .describe('Registrations with tools in the view, in inventory order.'),
  })
  .meta({ title: 'ThreadToolViewGetResult' });
export type ThreadToolViewGetResult = z.infer<typeof ThreadToolViewGetResult>;
