/**
 * Tool search and token cost over real MCP servers (packages/runtime/src/views/toolSearch.ts,
 * toolCost.ts): the published filesystem server and the repository's echo fixture, started as
 * child processes and listed over MCP, in three environments, with definitions labelled as views
 * label them for a model.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { SearchableTool } from '@mcprt/runtime';
import { metaToolTokens, toolDefinitionTokens, ToolSearchIndex } from '@mcprt/runtime';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENVIRONMENTS: Record<string, string> = {
  buildbox: 'CI build machine that runs the test suite',
  devbox: 'Developer workstation with the project checkout',
  sandbox: 'Isolated container for untrusted code',
};

type Definition = SearchableTool['tool'];

async function listTools(args: string[]): Promise<Definition[]> {
  const client = new Client({ name: 'tool-search-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** `t` of `server` in `env`, named and labelled as a view with `tool_prefix = "always"` does. */
function viewTool(env: string, server: string, t: Definition): SearchableTool {
  const name = `${env}__${server}__${t.name}`;
  const title = typeof t.title === 'string' ? t.title : t.name;
  const description = typeof t.description === 'string' ? t.description : '';
  return {
    name,
    server,
    environmentId: env,
    environmentDescription: ENVIRONMENTS[env] ?? null,
    tool: {
      ...t,
      name,
      title: `${title} (${server}@${env})`,
      description: `[${server}@${env}] ${description}`,
    },
  };
}

let dir: string;
let servers: Record<string, Definition[]>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcprt-search-'));
  const [filesystem, shared] = await Promise.all([
    listTools([
      join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
      dir,
    ]),
    listTools([join(ROOT, 'test/fixtures/servers/echo-server.mjs')]),
  ]);
  servers = { filesystem, shared };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tool search over real servers', () => {
  it('ranks the named environment’s tool first', () => {
    expect(servers['filesystem']!.map((t) => t.name)).toContain('list_directory');
    const tools = Object.keys(ENVIRONMENTS).flatMap((env) =>
      Object.entries(servers).flatMap(([server, list]) =>
        list.map((t) => viewTool(env, server, t)),
      ),
    );
    const index = ToolSearchIndex.build(tools);
    expect(index.size).toBe(3 * (servers['filesystem']!.length + servers['shared']!.length));
    for (const env of Object.keys(ENVIRONMENTS)) {
      expect(index.search(`move a file to another directory on ${env}`)[0]?.name).toBe(
        `${env}__filesystem__move_file`,
      );
      expect(index.search(`create a new directory on ${env}`)[0]?.name).toBe(
        `${env}__filesystem__create_directory`,
      );
      expect(index.search(`echo a message back on ${env}`)[0]?.name).toBe(`${env}__shared__echo`);
    }
    expect(index.search('make a folder on the CI machine')[0]?.name).toBe(
      'buildbox__filesystem__create_directory',
    );
    const hit = index.search('write a file on devbox')[0]!;
    expect(hit).toMatchObject({
      name: 'devbox__filesystem__write_file',
      server: 'filesystem',
      environmentId: 'devbox',
    });
    // The hit's description is the server's, without the view's label.
    expect(hit.description.startsWith('Create a new file or completely overwrite')).toBe(true);
  });

  it('costs far fewer tokens as three meta-tools than as the definitions', () => {
    const perEnvironment = servers['filesystem']!.reduce(
      (n, t) => n + toolDefinitionTokens(viewTool('devbox', 'filesystem', t).tool),
      0,
    );
    // Fourteen tools with long descriptions: well over a thousand tokens in one environment.
    expect(perEnvironment).toBeGreaterThan(1000);
    expect(metaToolTokens()).toBeLessThan(perEnvironment / 2);
  });
});
