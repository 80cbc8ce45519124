/**
 * MCP Apps (`io.modelcontextprotocol/ui`) through `mcprt serve`, with the raw MCP SDK client in
 * both eras over stdio and HTTP: the same fixture server (apps-server.mjs, the same `ui://` URI)
 * thread-wide on this machine and in an exec environment; each tool's `_meta.ui.resourceUri` (and
 * the deprecated flat key) is rewritten into the gateway's `ui://mcprt/…` form of its scope, and
 * reading that URI returns that environment's HTML with its mimeType and `_meta` unchanged. A
 * client that declares the extension makes the gateway declare it to its servers (which then
 * list their UI tools); the gateway advertises the extension once a server lists a UI tool, and
 * hides app-only tools from clients that do not render apps. Also the published
 * server-basic-vanillajs.
 */

import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  arr,
  echoServer,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';
import type { Era, HttpGateway } from './helpers.js';
import { CLI, httpGateway, TOKEN } from './helpers.js';

const APPS = join(REPO_ROOT, 'test/fixtures/servers/apps-server.mjs');
const VANILLA = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js',
);
const EXT = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const UI_CAPS = { extensions: { [EXT]: { mimeTypes: [MIME] } } };
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
const LOCAL_URI = 'ui://mcprt/thread/apps/demo/app.html';
const BOX_URI = 'ui://mcprt/env/box/apps/demo/app.html';

function appsServer(table: string, name: string): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([APPS, '--name', name])}\n`;
}

/** `apps` thread-wide (this machine) and in the exec environment `box`: one `ui://` URI. */
function appsHome(): string {
  return makeHome(
    appsServer('mcp_servers.apps', 'local') +
      shExecEnvironment('box', tempDir('mcprt-apps-cwd-')) +
      appsServer('environments.box.mcp_servers.apps', 'box'),
  );
}

function client(era: Era, renders: boolean): Client {
  return new Client(
    { name: 'apps-test', version: '1.0.0' },
    {
      capabilities: renders ? UI_CAPS : {},
      ...(era === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
}

async function stdioClient(home: string, era: Era, renders: boolean): Promise<Client> {
  const c = client(era, renders);
  await c.connect(
    new StdioClientTransport({
      command: NODE,
      args: [CLI, '--home', home, 'serve'],
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return c;
}

async function httpClient(url: string, era: Era, renders: boolean): Promise<Client> {
  const c = client(era, renders);
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return c;
}

type Tool = { name: string; _meta?: Record<string, unknown> };

async function tools(c: Client): Promise<Map<string, Tool>> {
  const { tools: list } = await c.listTools();
  return new Map(list.map((t) => [t.name, t as Tool]));
}

async function text(c: Client, name: string): Promise<string> {
  const result = (await c.callTool({ name, arguments: {} })) as { content: { text: string }[] };
  return result.content[0]!.text;
}

/** The app's HTML, mimeType and `_meta` of one environment, read through the gateway. */
async function expectApp(c: Client, uri: string, who: string): Promise<void> {
  const read = await c.readResource({ uri });
  expect(read.contents).toHaveLength(1);
  const content = read.contents[0] as {
    uri: string;
    mimeType: string;
    text: string;
    _meta: unknown;
  };
  expect(content.uri).toBe(uri);
  expect(content.mimeType).toBe(MIME);
  expect(content.text).toContain(`<p id="where">app of ${who}</p>`);
  expect(content._meta).toEqual(UI_META);
}

const eras: Era[] = ['legacy', 'auto'];

describe.each(eras)('MCP Apps through mcprt serve over stdio (%s client)', (era) => {
  let home: string;
  beforeAll(() => {
    home = appsHome();
  });

  it('rewrites each tool UI URI into its scope and reads each environment its own HTML', async () => {
    const c = await stdioClient(home, era, true);
    try {
      const listed = await tools(c);
      // The client renders apps: the gateway said so to its servers, which list their UI tools.
      expect(await text(c, 'apps__client_ui')).toBe(JSON.stringify({ mimeTypes: [MIME] }));
      expect(await text(c, 'box__apps__client_ui')).toBe(JSON.stringify({ mimeTypes: [MIME] }));
      const local = listed.get('apps__show_app')!;
      const box = listed.get('box__apps__show_app')!;
      expect(local._meta?.['ui']).toEqual({ resourceUri: LOCAL_URI });
      expect(box._meta?.['ui']).toEqual({ resourceUri: BOX_URI });
      expect(box._meta?.['keep']).toBe('this'); // the tool's other `_meta` keys stay
      expect(listed.get('box__apps__legacy_app')!._meta?.['ui/resourceUri']).toBe(BOX_URI);
      // A client that renders apps sees the app-only tool (hiding it from its model is its own).
      expect(listed.get('box__apps__app_only')!._meta?.['ui']).toEqual({
        resourceUri: BOX_URI,
        visibility: ['app'],
      });
      await expectApp(c, LOCAL_URI, 'local');
      await expectApp(c, BOX_URI, 'box');
      // The listing names the same URIs, with the resource's own `_meta.ui`.
      const { resources } = await c.listResources();
      const byUri = new Map(resources.map((r) => [r.uri, r]));
      expect(byUri.get(BOX_URI)?.mimeType).toBe(MIME);
      expect((byUri.get(BOX_URI)?._meta as { ui?: unknown }).ui).toEqual(UI_META.ui);
      expect(byUri.has(LOCAL_URI)).toBe(true);
      // The `mcprt://` form of the same resource reads the same HTML.
      const wrapped = await c.readResource({ uri: 'mcprt://env/box/apps/ui://demo/app.html' });
      expect((wrapped.contents[0] as { text: string }).text).toContain('app of box');
    } finally {
      await c.close();
    }
  });

  it('says which URIs to read, and that an unknown scope or path is not found', async () => {
    const c = await stdioClient(home, era, true);
    try {
      await tools(c);
      await expect(c.readResource({ uri: 'ui://demo/app.html' })).rejects.toThrow(
        `Resource ui://demo/app.html is served by \`apps\`, \`apps@box\`; read ${LOCAL_URI} or ${BOX_URI}`,
      );
      await expect(
        c.readResource({ uri: 'ui://mcprt/env/nowhere/apps/demo/app.html' }),
      ).rejects.toThrow('Resource ui://mcprt/env/nowhere/apps/demo/app.html not found');
      await expect(
        c.readResource({ uri: 'ui://mcprt/env/box/apps/demo/other.html' }),
      ).rejects.toThrow('unknown resource ui://demo/other.html');
    } finally {
      await c.close();
    }
  });

  it('declares nothing to servers for a client that does not render apps', async () => {
    const c = await stdioClient(home, era, false);
    try {
      const listed = await tools(c);
      expect(await text(c, 'box__apps__client_ui')).toBe('null');
      expect([...listed.keys()].sort()).toEqual([
        'apps__client_ui',
        'apps__plain',
        'box__apps__client_ui',
        'box__apps__plain',
      ]);
      expect(c.getServerCapabilities()?.extensions?.[EXT]).toBeUndefined();
    } finally {
      await c.close();
    }
  });
});

describe('MCP Apps through mcprt serve over HTTP', () => {
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await httpGateway(appsHome());
    // A first client starts the servers, so later handshakes find their UI tools.
    const first = await httpClient(gateway.url, 'legacy', false);
    await tools(first);
    await first.close();
  });
  afterAll(() => gateway.stop());

  it.each(eras)('advertises the extension and serves each scope its HTML (%s)', async (era) => {
    const c = await httpClient(gateway.url, era, true);
    try {
      expect(c.getServerCapabilities()?.extensions?.[EXT]).toEqual({ mimeTypes: [MIME] });
      const listed = await tools(c);
      expect(listed.get('box__apps__show_app')!._meta?.['ui']).toEqual({ resourceUri: BOX_URI });
      expect(listed.has('box__apps__app_only')).toBe(true);
      await expectApp(c, LOCAL_URI, 'local');
      await expectApp(c, BOX_URI, 'box');
    } finally {
      await c.close();
    }
  });

  it.each(eras)(
    'hides app-only tools from a client that does not render apps (%s)',
    async (era) => {
      const c = await httpClient(gateway.url, era, false);
      try {
        const listed = await tools(c);
        expect(listed.get('apps__show_app')!._meta?.['ui']).toEqual({ resourceUri: LOCAL_URI });
        expect(listed.has('apps__app_only')).toBe(false);
        expect(listed.has('box__apps__app_only')).toBe(false);
      } finally {
        await c.close();
      }
    },
  );
});

describe('MCP Apps: a gateway without UI tools', () => {
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await httpGateway(makeHome(echoServer('mcp_servers.plain', 'plain')));
  });
  afterAll(() => gateway.stop());

  it.each(eras)('does not advertise the extension (%s)', async (era) => {
    const c = await httpClient(gateway.url, era, true);
    try {
      await tools(c);
      const again = await httpClient(gateway.url, era, true);
      expect(again.getServerCapabilities()?.extensions?.[EXT]).toBeUndefined();
      await again.close();
    } finally {
      await c.close();
    }
  });
});

describe('MCP Apps: the published server-basic-vanillajs through mcprt serve', () => {
  it.each(eras)('rewrites get-time and reads its app (%s)', async (era) => {
    const home = makeHome(
      `[mcp_servers.basic]\ncommand = ${q(NODE)}\nargs = ${arr([VANILLA, '--stdio'])}\n`,
    );
    const c = await stdioClient(home, era, true);
    try {
      const tool = (await tools(c)).get('basic__get_time')!;
      const uri = 'ui://mcprt/thread/basic/get-time/mcp-app.html';
      expect(tool._meta?.['ui']).toEqual({ resourceUri: uri });
      expect(tool._meta?.['ui/resourceUri']).toBe(uri);
      const read = await c.readResource({ uri });
      const content = read.contents[0] as { uri: string; mimeType: string; text: string };
      expect(content.uri).toBe(uri);
      expect(content.mimeType).toBe(MIME);
      expect(content.text).toMatch(/^<!DOCTYPE html>/i);
      expect(await text(c, 'basic__get_time')).toMatch(/^\d{4}-\d\d-\d\dT/);
    } finally {
      await c.close();
    }
  });
});
