import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

import {
  CALL_TOOL,
  GET_TOOL_DETAILS,
  META_TOOL_NAMES,
  metaToolDefinitions,
  metaToolTokens,
  SEARCH_TOOLS,
} from './metaTools.js';
import { toolDefinitionTokens } from './toolCost.js';
import { MAX_SEARCH_LIMIT, ToolSearchIndex } from './toolSearch.js';

// MCP's default dialect for tool schemas is JSON Schema 2020-12; strict mode refuses unknown
// keywords and ambiguous types.
const ajv = new Ajv2020({ strict: true, allErrors: true });

function definition(name: string) {
  const found = metaToolDefinitions().find((d) => d.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
}

const validator = (schema: unknown) => ajv.compile(schema as object);

describe('the meta-tools', () => {
  it('are search_tools, get_tool_details and call_tool, in that order', () => {
    expect(metaToolDefinitions().map((d) => d.name)).toEqual([
      SEARCH_TOOLS,
      GET_TOOL_DETAILS,
      CALL_TOOL,
    ]);
    expect([SEARCH_TOOLS, GET_TOOL_DETAILS, CALL_TOOL]).toEqual([
      'search_tools',
      'get_tool_details',
      'call_tool',
    ]);
    expect([...META_TOOL_NAMES].sort()).toEqual(['call_tool', 'get_tool_details', 'search_tools']);
  });

  it('are the same frozen objects on every call', () => {
    expect(metaToolDefinitions()).toBe(metaToolDefinitions());
    for (const d of metaToolDefinitions()) {
      expect(Object.isFrozen(d)).toBe(true);
      expect(Object.isFrozen(d.inputSchema)).toBe(true);
    }
  });

  it('tell the model to search first and call with the exact name', () => {
    expect(definition(SEARCH_TOOLS).description).toMatch(/call_tool using that exact name/);
    expect(definition(CALL_TOOL).description).toMatch(/exact name/);
    for (const d of metaToolDefinitions()) {
      expect(d.title.length).toBeGreaterThan(0);
      expect(d.description.length).toBeGreaterThan(40);
    }
  });

  it('mark search and details read-only, call_tool as anything', () => {
    expect(definition(SEARCH_TOOLS).annotations).toMatchObject({ readOnlyHint: true });
    expect(definition(GET_TOOL_DETAILS).annotations).toMatchObject({ readOnlyHint: true });
    expect(definition(CALL_TOOL).annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(definition(CALL_TOOL).outputSchema).toBeUndefined();
  });

  it('cost what toolCost counts for them', () => {
    const sum = metaToolDefinitions().reduce((n, d) => n + toolDefinitionTokens(d), 0);
    expect(metaToolTokens()).toBe(sum);
    // Small next to a view's definitions (a single real server lists thousands of tokens).
    expect(sum).toBeGreaterThan(200);
    expect(sum).toBeLessThan(1000);
  });
});

describe('their schemas', () => {
  it('are valid JSON Schema (2020-12, strict), input and output', () => {
    for (const d of metaToolDefinitions()) {
      expect(d.inputSchema['type']).toBe('object');
      expect(() => validator(d.inputSchema)).not.toThrow();
      if (d.outputSchema !== undefined) expect(() => validator(d.outputSchema)).not.toThrow();
    }
  });

  it('search_tools takes a query and an optional limit up to 50', () => {
    const valid = validator(definition(SEARCH_TOOLS).inputSchema);
    expect(valid({ query: 'run the tests on buildbox' })).toBe(true);
    expect(valid({ query: 'read a file', limit: 8 })).toBe(true);
    expect(valid({ query: 'read a file', limit: MAX_SEARCH_LIMIT })).toBe(true);
    expect(valid({})).toBe(false);
    expect(valid({ query: '' })).toBe(false);
    expect(valid({ query: 'x', limit: 0 })).toBe(false);
    expect(valid({ query: 'x', limit: 51 })).toBe(false);
    expect(valid({ query: 'x', limit: 2.5 })).toBe(false);
    expect(valid({ query: 'x', extra: true })).toBe(false);
  });

  it('get_tool_details takes names', () => {
    const valid = validator(definition(GET_TOOL_DETAILS).inputSchema);
    expect(valid({ names: ['buildbox__ci__run_tests'] })).toBe(true);
    expect(valid({ names: [] })).toBe(false);
    expect(valid({ names: 'buildbox__ci__run_tests' })).toBe(false);
    expect(valid({})).toBe(false);
  });

  it('call_tool takes a name and optional arguments of any shape', () => {
    const valid = validator(definition(CALL_TOOL).inputSchema);
    expect(valid({ name: 'buildbox__ci__run_tests' })).toBe(true);
    expect(valid({ name: 'echo', arguments: { message: 'hi', nested: { a: [1, 2] } } })).toBe(true);
    expect(valid({ name: '' })).toBe(false);
    expect(valid({ name: 'echo', arguments: 'hi' })).toBe(false);
    expect(valid({ arguments: {} })).toBe(false);
  });

  it("describe what a search's hits and a details answer look like", () => {
    const index = ToolSearchIndex.build([
      {
        name: 'buildbox__ci__run_tests',
        server: 'ci',
        environmentId: 'buildbox',
        environmentDescription: 'CI build machine',
        tool: { name: 'buildbox__ci__run_tests', description: 'Run the test suite' },
      },
      {
        name: 'docs__search',
        server: 'docs',
        environmentId: null,
        environmentDescription: null,
        tool: { name: 'docs__search', description: 'Search the test documentation' },
      },
    ]);
    const tools = index.search('tests').map(({ name, server, environmentId, description }) => ({
      name,
      server,
      environmentId,
      description,
    }));
    expect(tools).toHaveLength(2);
    const searchResult = validator(definition(SEARCH_TOOLS).outputSchema);
    expect(searchResult({ tools })).toBe(true);
    expect(searchResult({ tools: [{ name: 'x', server: 'y', description: 'z' }] })).toBe(false);

    const details = validator(definition(GET_TOOL_DETAILS).outputSchema);
    expect(
      details({
        tools: [
          {
            name: 'buildbox__ci__run_tests',
            title: 'Run tests',
            description: 'Run the test suite',
            inputSchema: { type: 'object', properties: {} },
            annotations: { readOnlyHint: false },
          },
        ],
        missing: ['no_such_tool'],
      }),
    ).toBe(true);
    expect(details({ tools: [{ name: 'x' }], missing: [] })).toBe(false);
  });
});
