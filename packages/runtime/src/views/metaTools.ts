/**
 * The three meta-tools a view lists instead of its tools while tool search is on
 * (docs/tool-shaping.md): `search_tools` finds tools by what they do, `get_tool_details` gives
 * their full definitions, `call_tool` calls one by its exact name. This module owns their MCP
 * definitions (names, instructions for the model, input and output schemas, annotations) and
 * what they cost in tokens; the gateway answers them (packages/gateway/src/metaTools.ts).
 */

import { TOOL_SEARCH_TOOL_NAMES } from '../config/views.js';
import type { ToolDefinition } from '../connection/mcpTypes.js';
import { toolDefinitionTokens } from './toolCost.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './toolSearch.js';

export const SEARCH_TOOLS = 'search_tools';
export const GET_TOOL_DETAILS = 'get_tool_details';
export const CALL_TOOL = 'call_tool';

/** The three names, as config validation reserves them for renames (config/views.ts). */
export const META_TOOL_NAMES: ReadonlySet<string> = new Set(TOOL_SEARCH_TOOL_NAMES);

/** An MCP tool definition as listed (`tools/list`). */
export interface MetaToolDefinition extends ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations: Readonly<Record<string, unknown>>;
}

const stringOrNull = { type: ['string', 'null'] };

const searchTools: MetaToolDefinition = {
  name: SEARCH_TOOLS,
  title: 'Search tools',
  description:
    'Find tools by what they do. Many more tools are available than are listed: search before ' +
    'saying a tool does not exist. Describe the task in plain words, and say where when it ' +
    'matters (e.g. "run the tests on buildbox"): tools run in several environments and the ' +
    'search knows their names and descriptions. Returns the best matches first, each with its ' +
    'exact `name`, its `server`, its `environmentId` (null: not tied to an environment) and a ' +
    `short description. Then call one with ${CALL_TOOL} using that exact name; use ` +
    `${GET_TOOL_DETAILS} first when you need its parameters.`,
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        description:
          'What the tool should do, in plain words (name the environment or server if it matters).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        default: DEFAULT_SEARCH_LIMIT,
        description: `How many tools to return at most (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      tools: {
        type: 'array',
        description: 'Best match first.',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: `The exact name to give ${CALL_TOOL}.` },
            server: { type: 'string' },
            environmentId: stringOrNull,
            description: { type: 'string' },
          },
          required: ['name', 'server', 'environmentId', 'description'],
        },
      },
    },
    required: ['tools'],
  },
  annotations: {
    title: 'Search tools',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

const getToolDetails: MetaToolDefinition = {
  name: GET_TOOL_DETAILS,
  title: 'Get tool details',
  description:
    `Full definitions of tools found with ${SEARCH_TOOLS}: description, input schema (the ` +
    `arguments ${CALL_TOOL} passes on), output schema and annotations. Names that are not ` +
    'tools here come back in `missing`.',
  inputSchema: {
    type: 'object',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: `Exact tool names, as ${SEARCH_TOOLS} returned them.`,
      },
    },
    required: ['names'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      tools: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            title: { type: 'string' },
            description: { type: 'string' },
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object' },
            annotations: { type: 'object' },
          },
          required: ['name', 'inputSchema'],
        },
      },
      missing: {
        type: 'array',
        items: { type: 'string' },
        description: 'Names asked for that are not tools here.',
      },
    },
    required: ['tools', 'missing'],
  },
  annotations: {
    title: 'Get tool details',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

const callTool: MetaToolDefinition = {
  name: CALL_TOOL,
  title: 'Call a tool',
  description:
    `Call a tool found with ${SEARCH_TOOLS}, by its exact name, with its own arguments. ` +
    "Returns the tool's own result unchanged. Use the name exactly as returned (it may " +
    'include an environment and a server); if you are unsure of the arguments, ' +
    `${GET_TOOL_DETAILS} gives its input schema.`,
  inputSchema: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        description: `The tool's exact name, as ${SEARCH_TOOLS} returned it.`,
      },
      arguments: {
        type: 'object',
        additionalProperties: true,
        description: "The tool's own arguments, as its input schema describes them.",
      },
    },
    required: ['name'],
    additionalProperties: false,
  },
  // It runs whatever tool it names: nothing can be promised about it.
  annotations: {
    title: 'Call a tool',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
};

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const DEFINITIONS: readonly MetaToolDefinition[] = deepFreeze([
  searchTools,
  getToolDetails,
  callTool,
]);

/**
 * The three definitions, in this order: search_tools, get_tool_details, call_tool. The same
 * frozen objects on every call (so token counts stay cached); copy before changing one.
 */
export function metaToolDefinitions(): readonly MetaToolDefinition[] {
  return DEFINITIONS;
}

let tokens: number | undefined;

/** What the three definitions cost a model, in o200k_base tokens (toolCost.ts). */
export function metaToolTokens(): number {
  tokens ??= DEFINITIONS.reduce((n, d) => n + toolDefinitionTokens(d), 0);
  return tokens;
}
