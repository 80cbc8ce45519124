// The real MCP servers the tool-search bench and eval read tool lists from: the demo's two
// (`@modelcontextprotocol/server-everything` and the echo fixture, demo/config.toml) plus the
// published filesystem, memory and sequential-thinking servers. Each is started as a child
// process over stdio with the MCP SDK client, asked `tools/list` once, and stopped; the
// definitions come back exactly as listed, so token counts and search run on what a model sees.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { REPO_ROOT, SCRATCH_PARENT } from './paths.mjs';

const pkg = (name) =>
  join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

/** Server name (as a config would register it) → how to start it; `dir` is an allowed folder. */
export const REAL_SERVERS = {
  everything: () => ({ args: [pkg('server-everything'), 'stdio'] }),
  shared: () => ({ args: [join(REPO_ROOT, 'test', 'fixtures', 'servers', 'echo-server.mjs')] }),
  filesystem: (dir) => ({ args: [pkg('server-filesystem'), dir] }),
  memory: (dir) => ({
    args: [pkg('server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  }),
  'sequential-thinking': () => ({
    args: [pkg('server-sequential-thinking')],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
  }),
};

async function listOne(name, dir) {
  const { args, env = {} } = REAL_SERVERS[name](dir);
  const client = new Client({ name: 'mcprt-bench-tools', version: '0.1.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...process.env, ...env },
    cwd: dir,
    stderr: 'ignore',
  });
  await client.connect(transport);
  try {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await client.close();
  }
}

/** `{ server: tools[] }` for every real server, listed in parallel from fresh processes. */
export async function listRealServerTools() {
  const dir = mkdtempSync(join(SCRATCH_PARENT, 'mcprt-search-'));
  try {
    const names = Object.keys(REAL_SERVERS);
    const lists = await Promise.all(names.map((name) => listOne(name, dir)));
    return Object.fromEntries(names.map((name, i) => [name, lists[i]]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
