// Inventory per scope against real servers: list_changed refreshes without reload, tool filters
// apply at listing and call time, resources are listed and readable by scope.
import { describe, expect, it } from 'vitest';

import { ToolDisabledError } from '@mcprt/runtime';

import {
  arr,
  echoServer,
  EVERYTHING_SERVER,
  RAW_SERVER,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

describe('inventory', () => {
  it('shows a tool the server adds at runtime (list_changed) without a reload', async () => {
    const runtime = load(echoServer('mcp_servers.dyn', 'dyn'));
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('dyn').tools.map((t) => t.name)).not.toContain('fresh_tool');
    const changed = new Promise((resolve) => session.once('inventoryChanged', resolve));
    await session.callTool({ server: 'dyn', tool: 'add_tool', arguments: { tool: 'fresh_tool' } });
    await expect(changed).resolves.toEqual({ scope: { environmentId: null, name: 'dyn' } });
    const tool = session.status('dyn').tools.find((t) => t.name === 'fresh_tool');
    expect(tool?.modelName).toBe('mcp__dyn__fresh_tool');
    expect(text(await session.callModelTool('mcp__dyn__fresh_tool'))).toBe('fresh_tool');
  });

  it('keeps list_changed per scope: the same name in another environment is unaffected', async () => {
    const runtime = load(
      echoServer('mcp_servers.shared', 'tw') +
        shExecEnvironment('box', tempDir()) +
        echoServer('environments.box.mcp_servers.shared', 'box'),
    );
    const session = runtime.startSession();
    await session.ready();
    await session.callTool({
      server: 'shared',
      environmentId: 'box',
      tool: 'add_tool',
      arguments: { tool: 'only_box' },
    });
    await waitFor(
      () => session.status('shared', 'box').tools.some((t) => t.name === 'only_box'),
      10_000,
      'only_box',
    );
    expect(session.status('shared').tools.map((t) => t.name)).not.toContain('only_box');
    expect(
      session.status('shared', 'box').tools.find((t) => t.name === 'only_box')?.modelName,
    ).toBe('mcp__box__shared__only_box');
  });

  it('applies enabled_tools / disabled_tools to the listing and refuses filtered tools at call time', async () => {
    const runtime = load(
      echoServer(
        'mcp_servers.f',
        'f',
        `enabled_tools = ["echo", "whoami", "env"]\ndisabled_tools = ["env"]`,
      ),
    );
    const session = runtime.startSession();
    await session.ready();
    expect(
      session
        .status('f')
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(['echo', 'whoami']);
    await expect(
      session.callTool({ server: 'f', tool: 'env', arguments: { key: 'HOME' } }),
    ).rejects.toThrow(ToolDisabledError);
    await expect(
      session.callTool({ server: 'f', tool: 'sleep', arguments: { ms: 1 } }),
    ).rejects.toThrow("tool 'sleep' is disabled for MCP server 'f' (not in enabled_tools)");
  });

  it('follows tools/list pagination to the end', async () => {
    const runtime = load(
      `[mcp_servers.raw]\ncommand = ${q(NODE)}\nargs = ${arr([RAW_SERVER, '--tools', '25', '--page-size', '4'])}\n`,
    );
    const session = runtime.startSession();
    await session.ready();
    const names = session.status('raw').tools.map((t) => t.name);
    expect(names).toHaveLength(25);
    expect(new Set(names)).toEqual(new Set(Array.from({ length: 25 }, (_, i) => `t${i}`)));
    expect(JSON.parse(text(await session.callModelTool('mcp__raw__t24', { a: 1 })))).toMatchObject({
      name: 't24',
      arguments: { a: 1 },
    });
  });

  it('lists and reads resources of the published everything server', async () => {
    const runtime = load(
      `[mcp_servers.everything]\ncommand = ${q(NODE)}\nargs = ${arr([EVERYTHING_SERVER, 'stdio'])}\n`,
    );
    const session = runtime.startSession();
    await session.ready();
    const status = session.status('everything');
    expect(status.connectionStatus).toBe('connected');
    expect(status.tools.map((t) => t.name)).toContain('echo');
    expect(status.resources.length).toBeGreaterThan(0);
    const first = status.resources[0]!;
    const read = await session.readResource({ server: 'everything', uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);
    expect(
      text(
        await session.callTool({
          server: 'everything',
          tool: 'echo',
          arguments: { message: 'hey' },
        }),
      ),
    ).toContain('hey');
  });
});

describe('resources by scope', () => {
  it('lists resources and templates page by page, per scope, and leaves out a server with a duplicate cursor', async () => {
    const runtime = load(
      `[mcp_servers.paged]\ncommand = ${q(NODE)}\nargs = ${arr([RAW_SERVER, '--resources', '7', '--page-size', '3'])}\n` +
        `[mcp_servers.looping]\ncommand = ${q(NODE)}\nargs = ${arr([RAW_SERVER, '--resources', '3', '--page-size', '2', '--dup-cursor'])}\n`,
    );
    const session = runtime.startSession();
    await session.ready();
    // Startup survives the looping server: it serves its tools, without resources.
    expect(session.status('looping').connectionStatus).toBe('connected');
    expect(session.status('paged').resources.map((r) => r.uri)).toEqual(
      Array.from({ length: 7 }, (_, i) => `raw://r${i}`),
    );

    const all = await session.listResources();
    expect(all.data.map((d) => [d.scope.name, d.items.length])).toEqual([['paged', 7]]);
    expect(all.errors).toEqual([
      {
        scope: { environmentId: null, name: 'looping' },
        error: 'resources/list returned duplicate cursor',
      },
    ]);
    const templates = await session.listResourceTemplates({ server: 'paged' });
    expect(templates.data[0]!.items.map((t) => t.uriTemplate)).toEqual(
      Array.from({ length: 7 }, (_, i) => `raw://t${i}/{x}`),
    );
    const loopingTemplates = await session.listResourceTemplates({ server: 'looping' });
    expect(loopingTemplates.errors[0]!.error).toBe(
      'resources/templates/list returned duplicate cursor',
    );
    const read = await session.readResource({ server: 'paged', uri: 'raw://r5' });
    expect(read.contents).toEqual([{ uri: 'raw://r5', text: 'content of raw://r5' }]);
  });
});
