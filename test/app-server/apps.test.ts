// MCP Apps (`io.modelcontextprotocol/ui`) through the app-server as a real process: the same
// fixture server (apps-server.mjs, the same `ui://` URI) thread-wide and in an exec environment.
// Threads declare the extension to servers (so they list their UI tools); the status listing
// carries each tool's `_meta`; a call's `item/started` and `item/completed` carry Codex's
// `mcpAppResourceUri` and `mcpAppUi`; `mcpServer/resource/read` of the `ui://` URI returns that
// scope's HTML with its mimeType and `_meta`. Every message is checked against Codex 0.171's schema.
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertCodexSchema } from '../helpers/codexSchema.js';
import {
  arr,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { RawAppServer } from '../helpers/rpcClient.js';

const APPS = join(REPO_ROOT, 'test/fixtures/servers/apps-server.mjs');
const URI = 'ui://demo/app.html';
const MIME = 'text/html;profile=mcp-app';
const UI_META = {
  ui: {
    csp: {
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
    },
    permissions: { clipboardWrite: {} },
    domain: 'demo.example.com',
    prefersBorder: true,
  },
};

function appsServer(table: string, name: string): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([APPS, '--name', name])}\n`;
}

type Tools = Record<string, { _meta?: Record<string, unknown> }>;

describe('MCP Apps through the app-server', () => {
  let server: RawAppServer;
  let threadId: string;

  beforeAll(async () => {
    const home = makeHome(
      appsServer('mcp_servers.apps', 'local') +
        shExecEnvironment('box', tempDir()) +
        appsServer('environments.box.mcp_servers.apps', 'box'),
    );
    server = RawAppServer.start(home);
    await server.initialize();
    const started = await server.call<{ thread: { id: string } }>('thread/start', {
      ephemeral: true,
      environments: [{ environmentId: 'box', cwd: tempDir() }],
    });
    threadId = started.thread.id;
    for (const env of [null, 'box']) {
      await server.waitFor(
        (m) =>
          m.method === 'mcpServer/startupStatus/updated' &&
          (m.params as { environmentId: string | null; status: string }).environmentId === env &&
          (m.params as { status: string }).status === 'ready',
      );
    }
  });
  afterAll(async () => {
    expect(await server.close()).toBe(0);
  });

  it('declares the extension to servers and lists each tool with its _meta', async () => {
    const list = await server.call<{ data: Record<string, unknown>[] }>('mcpServerStatus/list', {
      threadId,
    });
    assertCodexSchema('ListMcpServerStatusResponse', list);
    const box = list.data.find((s) => s['environmentId'] === 'box')!;
    const tools = box['tools'] as Tools;
    expect(Object.keys(tools).sort()).toEqual([
      'app_only',
      'client_ui',
      'legacy_app',
      'plain',
      'show_app',
    ]);
    expect(tools['show_app']!._meta).toEqual({ ui: { resourceUri: URI }, keep: 'this' });
    expect(tools['legacy_app']!._meta).toEqual({ 'ui/resourceUri': URI });
    const reply = await server.call<{ content: { text: string }[] }>('mcpServer/tool/call', {
      threadId,
      server: 'apps',
      environmentId: 'box',
      tool: 'client_ui',
    });
    expect(reply.content[0]!.text).toBe(JSON.stringify({ mimeTypes: [MIME] }));
  });

  it('carries the UI resource on the call items (Codex mcpAppResourceUri / mcpAppUi)', async () => {
    const itemsOf = async (tool: string): Promise<[Message, Message]> => {
      const reply = await server.request('mcpServer/tool/call', {
        threadId,
        server: 'apps',
        environmentId: 'box',
        tool,
      });
      expect(reply.result).toMatchObject({ content: [{ type: 'text', text: `${tool} of box` }] });
      const mine = (m: Message, method: string) =>
        m.method === method &&
        (m.params as { item: { tool: string; id: string } }).item.tool === tool &&
        !seen.has(m);
      const started = await server.waitFor((m) => mine(m, 'item/started'));
      const completed = await server.waitFor((m) => mine(m, 'item/completed'));
      seen.add(started);
      seen.add(completed);
      return [started, completed];
    };
    const seen = new Set<Message>();
    for (const tool of ['show_app', 'legacy_app']) {
      const [started, completed] = await itemsOf(tool);
      assertCodexSchema('ItemStartedNotification', started.params);
      assertCodexSchema('ItemCompletedNotification', completed.params);
      for (const m of [started, completed]) {
        expect((m.params as { item: unknown }).item).toMatchObject({
          mcpAppResourceUri: URI,
          mcpAppUi: { preferredModelDisplayMode: 'inline', resourceUri: URI },
        });
      }
    }
    const [, plain] = await itemsOf('plain');
    assertCodexSchema('ItemCompletedNotification', plain.params);
    expect((plain.params as { item: object }).item).not.toHaveProperty('mcpAppUi');
    expect((plain.params as { item: object }).item).not.toHaveProperty('mcpAppResourceUri');
  });

  it('reads each scope its own HTML with mimeType and _meta, in a thread and without one', async () => {
    for (const [environmentId, who] of [
      [null, 'local'],
      ['box', 'box'],
    ] as const) {
      for (const thread of [{ threadId }, {}]) {
        const read = await server.request('mcpServer/resource/read', {
          ...thread,
          server: 'apps',
          ...(environmentId === null ? {} : { environmentId }),
          uri: URI,
        });
        assertCodexSchema('McpResourceReadResponse', read.result);
        const contents = (read.result as { contents: Record<string, unknown>[] }).contents;
        expect(contents).toHaveLength(1);
        expect(contents[0]).toMatchObject({ uri: URI, mimeType: MIME, _meta: UI_META });
        expect(contents[0]!['text']).toContain(`<p id="where">app of ${who}</p>`);
      }
    }
  });

  it("passes a missing UI resource's error through", async () => {
    const read = await server.request('mcpServer/resource/read', {
      threadId,
      server: 'apps',
      environmentId: 'box',
      uri: 'ui://demo/other.html',
    });
    expect(read.error?.message).toContain('unknown resource ui://demo/other.html');
  });
});
