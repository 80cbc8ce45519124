/**
 * `mcprt serve --view NAME` against the raw MCP SDK client in both eras (docs/tool-shaping.md):
 * the client sees only the view's tools, under their view names, and — with tool search on —
 * the `always_load` tools plus `search_tools`, `get_tool_details` and `call_tool`, through which
 * it finds and calls a tool of another environment (progress and elicitation too); the call is
 * in the history with its environment and the view. Tools, resources and prompts outside the
 * view are not listed and cannot be reached by name: a call is refused (recorded as refused) or
 * unknown.
 */

import { spawnSync } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, makeHome, NODE, waitFor } from '../helpers/fixtures.js';
import { recoveredHistory } from '../helpers/history.js';
import type { Era, GatewayClient } from './helpers.js';
import {
  CLI,
  httpClient,
  httpGateway,
  stdioGateway,
  texts,
  twoExecEnvironments,
} from './helpers.js';
import type { HttpGateway } from './helpers.js';

const VIEWS = `
[views.review]
include = ["*/shared/*"]
exclude = ["*/shared/fail", "*/shared/add_tool"]
tool_search = "always"
tool_prefix = "always"
always_load = ["a/shared/whoami"]

[views.review.tools."b/shared/echo"]
name = "echo_b"
description = "Say the message back from the second box"

[views.small]
include = ["a/shared/echo", "-/other/whoami"]
tool_search = "off"
`;

function viewHome(): string {
  return makeHome(twoExecEnvironments() + echoServer('mcp_servers.other', 'other') + VIEWS);
}

interface Row {
  server: string;
  environment_id: string | null;
  tool: string;
  status: string;
  view: string | null;
  error: string | null;
}

const cases: [transport: 'stdio' | 'http', era: Era][] = [
  ['stdio', 'legacy'],
  ['stdio', 'auto'],
  ['http', 'auto'],
];

describe.each(cases)('a view with tool search, over %s, %s era', (transport, era) => {
  let home: string;
  let gateway: GatewayClient;
  let server: HttpGateway | null = null;

  beforeAll(async () => {
    home = viewHome();
    if (transport === 'stdio') {
      gateway = await stdioGateway(home, era, ['--view', 'review']);
    } else {
      server = await httpGateway(home, ['--view', 'review']);
      gateway = await httpClient(server.url, era);
    }
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('lists the always_load tools and the three meta-tools, nothing else', async () => {
    const { tools } = await gateway.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['a__shared__whoami', 'call_tool', 'get_tool_details', 'search_tools'].sort(),
    );
    const search = tools.find((t) => t.name === 'search_tools')!;
    expect(search.inputSchema.properties).toHaveProperty('query');
  });

  it('finds a tool of another environment with search_tools, best first', async () => {
    const result = await gateway.client.callTool({
      name: 'search_tools',
      arguments: { query: 'say a message back from the second box', limit: 3 },
    });
    expect(result.isError).toBeFalsy();
    const found = (result.structuredContent as { tools: Record<string, unknown>[] }).tools;
    expect(found[0]).toEqual({
      name: 'echo_b',
      server: 'shared',
      environmentId: 'b',
      description: 'Say the message back from the second box',
    });
    expect(found.length).toBeLessThanOrEqual(3);
    // Nothing outside the view is ever found.
    for (const t of found) expect(t['server']).toBe('shared');
    expect(JSON.parse(texts(result)[0]!)).toEqual(result.structuredContent);
  });

  it('gives full definitions with get_tool_details, and names what it does not hold', async () => {
    const result = await gateway.client.callTool({
      name: 'get_tool_details',
      arguments: { names: ['echo_b', 'other__whoami', 'nope'] },
    });
    const { tools, missing } = result.structuredContent as {
      tools: { name: string; inputSchema: { properties: object } }[];
      missing: string[];
    };
    expect(tools.map((t) => t.name)).toEqual(['echo_b']);
    expect(tools[0]!.inputSchema.properties).toHaveProperty('message');
    expect(missing).toEqual(['other__whoami', 'nope']);
  });

  it('calls it through call_tool: the result is the tool’s own, recorded with env and view', async () => {
    const result = await gateway.client.callTool({
      name: 'call_tool',
      arguments: { name: 'echo_b', arguments: { message: `via ${transport} ${era}` } },
    });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual([`shared-b: via ${transport} ${era}`]);
    const rows = await waitFor(() => {
      const found = recoveredHistory<Row>(
        home,
        'server, environment_id, tool, status, view, error',
      );
      return found.some((r) => r.tool === 'echo' && r.status === 'completed') ? found : undefined;
    });
    expect(rows.find((r) => r.tool === 'echo')).toMatchObject({
      server: 'shared',
      environment_id: 'b',
      status: 'completed',
      view: 'review',
    });
  });

  it('relays an elicitation of a call made through call_tool to its asker', async () => {
    const result = await gateway.client.callTool({
      name: 'call_tool',
      arguments: { name: 'a__shared__ask' },
    });
    expect(texts(result).join('\n')).toContain('for shared@a');
  });

  it('calls a view tool by its own name too (it is in the view, only not listed)', async () => {
    const result = await gateway.client.callTool({
      name: 'echo_b',
      arguments: { message: 'direct' },
    });
    expect(texts(result)).toEqual(['shared-b: direct']);
  });

  it('refuses a tool outside the view by name, recorded as refused; a guess is unknown', async () => {
    await expect(gateway.client.callTool({ name: 'other__whoami', arguments: {} })).rejects.toThrow(
      'tool `whoami` of `other` is not in view `review`; refused',
    );
    await expect(
      gateway.client.callTool({ name: 'a__shared__fail', arguments: {} }),
    ).rejects.toThrow('tool `fail` of `shared@a` is not in view `review`; refused');
    await expect(gateway.client.callTool({ name: 'zzz_guess', arguments: {} })).rejects.toThrow(
      'Unknown tool: zzz_guess',
    );
    const viaMeta = await gateway.client.callTool({
      name: 'call_tool',
      arguments: { name: 'other__whoami' },
    });
    expect(viaMeta.isError).toBe(true);
    expect(texts(viaMeta)).toEqual(['tool `whoami` of `other` is not in view `review`; refused']);
    const rows = await waitFor(() => {
      const found = recoveredHistory<Row>(
        home,
        'server, environment_id, tool, status, view, error',
      );
      const refused = found.filter((r) => r.status === 'refused');
      return refused.length >= 3 ? refused : undefined;
    });
    expect(rows).toContainEqual({
      server: 'other',
      environment_id: null,
      tool: 'whoami',
      status: 'refused',
      view: 'review',
      error: 'tool `whoami` of `other` is not in view `review`; refused',
    });
    expect(rows.some((r) => r.tool === 'fail' && r.environment_id === 'a')).toBe(true);
  });

  it('gives bad meta-tool arguments back as tool errors', async () => {
    const empty = await gateway.client.callTool({
      name: 'search_tools',
      arguments: { query: ' ' },
    });
    expect(empty.isError).toBe(true);
    expect(texts(empty)[0]).toMatch(/^search_tools needs `query`/);
    const limit = await gateway.client.callTool({
      name: 'search_tools',
      arguments: { query: 'echo', limit: 51 },
    });
    expect(texts(limit)).toEqual(['search_tools: `limit` must be an integer from 1 to 50']);
  });

  it('lists resources of the view’s servers only, and reads none of another', async () => {
    const { resources } = await gateway.client.listResources();
    const servers = resources
      .map((r) => (r._meta?.['mcprt/registration'] as { label?: string } | undefined)?.label)
      .filter((l) => l !== undefined);
    expect(new Set(servers)).toEqual(new Set(['shared@a', 'shared@b']));
    await expect(
      gateway.client.readResource({ uri: 'mcprt://thread/other/fixture://greeting' }),
    ).rejects.toThrow(/not found/);
  });
});

describe('a view without search', () => {
  let gateway: GatewayClient;
  beforeAll(async () => {
    gateway = await stdioGateway(viewHome(), 'legacy', ['--view', 'small']);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('lists exactly its tools, across environments, under the default names', async () => {
    const { tools } = await gateway.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['a__shared__echo', 'other__whoami']);
    const result = await gateway.client.callTool({
      name: 'a__shared__echo',
      arguments: { message: 'small' },
    });
    expect(texts(result)).toEqual(['shared-a: small']);
  });

  it('has no meta-tools: search_tools is an unknown tool', async () => {
    await expect(
      gateway.client.callTool({ name: 'search_tools', arguments: { query: 'x' } }),
    ).rejects.toThrow('Unknown tool: search_tools');
  });
});

describe('an unknown view', () => {
  it('stops mcprt serve at once, naming the views there are', () => {
    const run = spawnSync(NODE, [CLI, '--home', viewHome(), 'serve', '--view', 'nope'], {
      encoding: 'utf8',
      input: '',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('mcprt: unknown view `nope` (defined: `review`, `small`)\n');
  });
});
