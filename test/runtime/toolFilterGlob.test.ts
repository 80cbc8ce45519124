// Glob `enabled_tools` / `disabled_tools` against a real fixture server: a filtered tool is absent
// from session.tools() and its status, and a call to it is refused naming the pattern or list.
import { describe, expect, it } from 'vitest';

import { ToolDisabledError } from '@mcprt/runtime';

import {
  arr,
  ECHO_SERVER,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  text,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

/** A stdio echo server with extra tools `--tools a,b,…`. */
function server(table: string, name: string, tools: readonly string[], extra: string): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--name', name, '--tools', tools.join(',')])}\n${extra}\n`;
}

describe('glob tool filters', () => {
  it('leaves glob-disabled tools out of every listing and refuses them at call time with the pattern', async () => {
    const runtime = load(
      shExecEnvironment('a', tempDir()) +
        server(
          'environments.a.mcp_servers.github',
          'github',
          ['delete_repo', 'delete_branch', 'get_repo'],
          'disabled_tools = ["delete_*", "sleep"]',
        ) +
        server(
          'mcp_servers.gh',
          'gh',
          ['get_repo', 'get_issue'],
          'enabled_tools = ["get_*", "echo"]',
        ),
    );
    const session = runtime.startSession();
    await session.ready();

    const listed = (environmentId: string | null, name: string): string[] =>
      session
        .tools()
        .filter((t) => t.scope.environmentId === environmentId && t.scope.name === name)
        .map((t) => t.tool.name)
        .sort();
    const github = listed('a', 'github');
    expect(github).toContain('get_repo');
    expect(github).toContain('echo');
    expect(github.filter((n) => n.startsWith('delete_') || n === 'sleep')).toEqual([]);
    expect(session.status('github', 'a').tools.map((t) => t.name)).toEqual(
      expect.not.arrayContaining(['delete_repo', 'delete_branch', 'sleep']),
    );
    expect(listed(null, 'gh')).toEqual(['echo', 'get_issue', 'get_repo']);
    expect(
      session
        .tools()
        .map((t) => t.modelName)
        .filter((n) => n.includes('delete_')),
    ).toEqual([]);

    const refused = session.callTool({
      server: 'github',
      environmentId: 'a',
      tool: 'delete_repo',
      arguments: {},
    });
    await expect(refused).rejects.toThrow(ToolDisabledError);
    await expect(refused).rejects.toMatchObject({
      code: 'tool_disabled',
      reason: 'disabled_tools pattern `delete_*`',
      message:
        "tool 'delete_repo' is disabled for MCP server 'github@a' (disabled_tools pattern `delete_*`)",
    });
    await expect(
      session.callTool({ server: 'github', environmentId: 'a', tool: 'sleep', arguments: {} }),
    ).rejects.toMatchObject({
      message: "tool 'sleep' is disabled for MCP server 'github@a' (listed in disabled_tools)",
    });
    await expect(
      session.callTool({ server: 'gh', tool: 'whoami', arguments: {} }),
    ).rejects.toMatchObject({
      message: "tool 'whoami' is disabled for MCP server 'gh' (not in enabled_tools)",
    });

    // What the filters let through is called as usual.
    expect(
      text(
        await session.callTool({
          server: 'github',
          environmentId: 'a',
          tool: 'get_repo',
          arguments: {},
        }),
      ),
    ).toBe('get_repo');
    expect(text(await session.callTool({ server: 'gh', tool: 'get_issue', arguments: {} }))).toBe(
      'get_issue',
    );
  });
});
