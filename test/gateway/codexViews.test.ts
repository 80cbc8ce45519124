/**
 * Codex 0.171 itself as the client of `mcprt serve --view` (docs/tool-shaping.md): Codex's
 * `mcpServerStatus/list` shows only what the view lists (with tool search on: its `always_load`
 * tool and the three meta-tools), and through Codex's own `mcpServer/tool/call` a tool of another
 * environment is found with `search_tools` and called with `call_tool`; the call is in the
 * gateway's history with its environment and the view, and a tool outside the view is refused.
 * Codex is installed into a cache outside the repository (bench/lib/codex.mjs); when that is
 * impossible (no network) the suite is skipped and says why.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CODEX_VERSION, CodexUnavailableError, ensureCodex } from '../../bench/lib/codex.mjs';
import {
  arr,
  echoServer,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import { recoveredHistory } from '../helpers/history.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { CLI, texts } from './helpers.js';

let codexBin: string | null = null;
let unavailable = '';
try {
  codexBin = ensureCodex((line) => console.warn(line)).bin;
} catch (error) {
  if (!(error instanceof CodexUnavailableError)) throw error;
  unavailable = error.message;
  console.warn(`skipping the Codex ${CODEX_VERSION} view tests: ${unavailable}`);
}

const VIEW = `
[views.review]
include = ["*/shared/*"]
tool_search = "always"
tool_prefix = "always"
always_load = ["a/shared/whoami"]
`;

describe.skipIf(codexBin === null)(
  codexBin === null
    ? `Codex ${CODEX_VERSION} through mcprt serve --view (skipped: ${unavailable})`
    : `Codex ${CODEX_VERSION} through mcprt serve --view`,
  () => {
    let codex: RawAppServer;
    let threadId: string;
    let gatewayHome: string;

    beforeAll(async () => {
      const cwd = tempDir('mcprt-codex-view-cwd-');
      gatewayHome = makeHome(
        shExecEnvironment('a', cwd, 'description = "developer laptop"') +
          echoServer('environments.a.mcp_servers.shared', 'shared-a') +
          shExecEnvironment('b', cwd, 'description = "staging server"') +
          echoServer('environments.b.mcp_servers.shared', 'shared-b') +
          echoServer('mcp_servers.other', 'other') +
          VIEW,
      );
      const codexHome = tempDir('mcprt-codex-home-');
      writeFileSync(
        join(codexHome, 'config.toml'),
        `[mcp_servers.mcprt]\ncommand = ${q(NODE)}\nargs = ${arr([CLI, '--home', gatewayHome, 'serve', '--view', 'review'])}\nstartup_timeout_sec = 60\n`,
      );
      codex = RawAppServer.spawn(codexBin!, ['app-server'], {
        ...process.env,
        CODEX_HOME: codexHome,
      });
      await codex.initialize();
      const started = await codex.call<{ thread: { id: string } }>('thread/start', {
        ephemeral: true,
        cwd: tempDir('mcprt-codex-cwd-'),
      });
      threadId = started.thread.id;
      const update = await codex.waitFor(
        (m) =>
          m.method === 'mcpServer/startupStatus/updated' &&
          ['ready', 'failed'].includes((m.params as { status: string }).status),
        90_000,
      );
      expect((update.params as { status: string }).status, JSON.stringify(update)).toBe('ready');
    });
    afterAll(async () => {
      await codex?.close();
    });

    const callTool = (tool: string, args: Record<string, unknown>) =>
      codex.call<Record<string, unknown>>('mcpServer/tool/call', {
        threadId,
        server: 'mcprt',
        tool,
        arguments: args,
      });

    it('sees only the view’s listing: its always_load tool and the three meta-tools', async () => {
      const list = await codex.call<{ data: { name: string; tools: Record<string, unknown> }[] }>(
        'mcpServerStatus/list',
        { threadId, serverName: 'mcprt', detail: 'toolsAndAuthOnly' },
      );
      expect(Object.keys(list.data[0]?.tools ?? {}).sort()).toEqual(
        ['a__shared__whoami', 'call_tool', 'get_tool_details', 'search_tools'].sort(),
      );
    });

    it('finds a tool of environment b with search_tools and calls it with call_tool', async () => {
      const search = await callTool('search_tools', {
        query: 'echo a message back on the staging server',
      });
      const found = (
        search['structuredContent'] as { tools: { name: string; environmentId: string }[] }
      ).tools;
      expect(found[0]).toMatchObject({ name: 'b__shared__echo', environmentId: 'b' });
      const result = await callTool('call_tool', {
        name: found[0]!.name,
        arguments: { message: 'from codex' },
      });
      expect(texts(result)).toEqual(['shared-b: from codex']);
      const rows = await waitFor(() => {
        const all = recoveredHistory<{ environment_id: string; tool: string; view: string }>(
          gatewayHome,
          'environment_id, tool, view, status',
        );
        return all.some((r) => r.tool === 'echo') ? all : undefined;
      });
      expect(rows.find((r) => r.tool === 'echo')).toMatchObject({
        environment_id: 'b',
        view: 'review',
        status: 'completed',
      });
    });

    it('refuses a tool outside the view through call_tool', async () => {
      const result = await callTool('call_tool', { name: 'other__whoami' });
      expect(result['isError']).toBe(true);
      expect(texts(result)).toEqual(['tool `whoami` of `other` is not in view `review`; refused']);
    });
  },
);
