/**
 * The gateway's three meta-tools while its view's tool search is on (docs/tool-shaping.md):
 * `search_tools` and `get_tool_details` answer from the session's view at once; `call_tool`
 * names the view's tool to call, which then runs exactly as a direct `tools/call` of it would
 * (serverFactory.ts runs it as an operation: history, sandbox contract, progress, elicitation and
 * cancellation alike). Bad arguments, unknown names and names outside the view are tool errors
 * the model can read and correct, never a way to reach a tool outside the view.
 */

import type { ToolView } from '@mcprt/runtime';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, SEARCH_TOOLS } from '@mcprt/runtime';
import type { CallToolResult } from '@modelcontextprotocol/server';

import type { ToolCallParams } from './toolCall.js';

type Args = Record<string, unknown> | undefined;

/** The answer of `search_tools` or `get_tool_details`. */
export function answerMetaQuery(view: ToolView, name: string, args: Args): CallToolResult {
  return name === SEARCH_TOOLS ? searchTools(view, args) : toolDetails(view, args);
}

function searchTools(view: ToolView, args: Args): CallToolResult {
  const query = args?.['query'];
  if (typeof query !== 'string' || query.trim() === '') {
    return metaError(
      'search_tools needs `query`: a non-empty string saying what the tool should do',
    );
  }
  const limit = args?.['limit'];
  if (
    limit !== undefined &&
    (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
  ) {
    return metaError(`search_tools: \`limit\` must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  const hits = view.search(query, (limit as number | undefined) ?? DEFAULT_SEARCH_LIMIT);
  const tools = hits.map((h) => ({
    name: h.name,
    server: h.server,
    environmentId: h.environmentId,
    description: h.description,
  }));
  return structured({ tools });
}

function toolDetails(view: ToolView, args: Args): CallToolResult {
  const names = args?.['names'];
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    return metaError('get_tool_details needs `names`: an array of tool names from search_tools');
  }
  const tools: Record<string, unknown>[] = [];
  const missing: string[] = [];
  for (const name of names as string[]) {
    const tool = view.find(name);
    if (tool === undefined) {
      missing.push(name);
      continue;
    }
    const d = tool.definition;
    tools.push({
      name: d.name,
      ...(d['title'] !== undefined ? { title: d['title'] } : {}),
      ...(d.description !== undefined ? { description: d.description } : {}),
      inputSchema: d.inputSchema ?? { type: 'object' },
      ...(d['outputSchema'] !== undefined ? { outputSchema: d['outputSchema'] } : {}),
      ...(d['annotations'] !== undefined ? { annotations: d['annotations'] } : {}),
    });
  }
  return structured({ tools, missing });
}

/** `call_tool`'s target call, or the tool error its arguments earn. */
export function callToolTarget(
  args: Args,
): { target: ToolCallParams } | { failure: CallToolResult } {
  const name = args?.['name'];
  if (typeof name !== 'string' || name === '') {
    return { failure: metaError('call_tool needs `name`: the exact name search_tools returned') };
  }
  const inner = args?.['arguments'];
  if (
    inner !== undefined &&
    (typeof inner !== 'object' || inner === null || Array.isArray(inner))
  ) {
    return {
      failure: metaError("call_tool: `arguments` must be an object (the tool's own arguments)"),
    };
  }
  const target =
    inner === undefined ? { name } : { name, arguments: inner as Record<string, unknown> };
  return { target };
}

function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function metaError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
