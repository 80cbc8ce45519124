/**
 * Failing servers behind `mcprt serve`: a server that cannot start and one that needs an OAuth
 * login are absent tools plus log messages — MCP `notifications/message` to the client and a
 * line on stderr, the login one naming the exact `mcprt mcp login` command for its scope — and
 * the status resource says the same. The gateway itself keeps serving the healthy servers.
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CREDENTIALS_FILE_NAME, credentialStoreKey } from '@mcprt/runtime';

import {
  echoServer,
  HTTP_SERVER,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import type { GatewayClient } from './helpers.js';
import { stdioGateway, texts } from './helpers.js';

let httpChild: ChildProcess;
let home: string;
let url: string;
let gateway: GatewayClient;
const toolLists: string[][] = [];

beforeAll(async () => {
  // An HTTP server that answers 401 without its bearer token (which the config does not give).
  httpChild = spawn(NODE, [HTTP_SERVER, '--token', 'the-real-token-123456'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) =>
    httpChild.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    }),
  );
  url = `http://127.0.0.1:${port}/mcp`;
  home = makeHome(
    'mcp_oauth_credentials_store = "file"\n' +
      shExecEnvironment('a', tempDir(), 'http = "direct"') +
      echoServer('environments.a.mcp_servers.shared', 'shared-a') +
      `[environments.a.mcp_servers.broken]\ncommand = "/nonexistent/mcprt-no-such-server"\n` +
      `[environments.a.mcp_servers.locked]\nurl = ${q(`http://127.0.0.1:${port}/mcp`)}\n` +
      `[mcp_servers.web]\nurl = ${q(`http://127.0.0.1:${port}/mcp`)}\n`,
  );
  gateway = await stdioGateway(home, 'legacy', [], {
    onToolsChanged: (names) => toolLists.push(names),
  });
});
afterAll(async () => {
  await gateway?.close();
  httpChild?.kill();
});

describe('failing servers behind the gateway', () => {
  it('are absent tools, while the healthy server is served', async () => {
    await waitFor(
      () => gateway.stderr().includes('`broken@a`') && gateway.stderr().includes('`web`'),
      20_000,
      'startup of every server to settle',
    );
    const { tools } = await gateway.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('a__shared__echo');
    expect(names.filter((n) => /broken|locked|web/.test(n))).toEqual([]);
    const result = await gateway.client.callTool({
      name: 'a__shared__echo',
      arguments: { message: 'still here' },
    });
    expect(texts(result)).toEqual(['shared-a: still here']);
  });

  it('are reported as MCP log messages and on stderr, with the login command for its scope', async () => {
    const login = `mcprt --home ${home} mcp login locked --environment a`;
    const logged = (needle: string) =>
      gateway.logs.some((l) => typeof l.data === 'string' && l.data.includes(needle));
    await waitFor(
      () => logged('`broken@a` failed') && logged(login) && logged('mcprt --home'),
      20_000,
      'log messages for the failing servers',
    );
    const broken = gateway.logs.find((l) => String(l.data).includes('`broken@a` failed'))!;
    expect(broken.level).toBe('error');
    expect(String(broken.data)).toContain('/nonexistent/mcprt-no-such-server');
    const locked = gateway.logs.find((l) => String(l.data).includes(login))!;
    expect(locked.level).toBe('warning');
    expect(String(locked.data)).toMatch(/`locked@a` needs an OAuth login/);
    expect(gateway.stderr()).toContain(login);
    expect(gateway.stderr()).toContain(`mcprt --home ${home} mcp login web`);
    expect(gateway.stderr()).toMatch(/mcprt serve: error: MCP server `broken@a` failed/);
  });

  it('show in the status resource: state, error and how to log in', async () => {
    const read = await gateway.client.readResource({ uri: 'mcprt://gateway/status' });
    const doc = JSON.parse((read.contents[0] as { text: string }).text) as {
      servers: {
        label: string;
        startupStatus: string;
        connectionStatus: string;
        error: string | null;
        tools: number;
        login: string | null;
      }[];
    };
    const by = (label: string) => doc.servers.find((s) => s.label === label)!;
    expect(by('shared@a')).toMatchObject({ startupStatus: 'ready', login: null });
    expect(by('shared@a').tools).toBeGreaterThan(0);
    expect(by('broken@a')).toMatchObject({ startupStatus: 'failed', tools: 0, login: null });
    expect(by('broken@a').error).toContain('/nonexistent/mcprt-no-such-server: not found');
    expect(by('locked@a')).toMatchObject({
      connectionStatus: 'authenticationRequired',
      tools: 0,
      login: `mcprt --home ${home} mcp login locked --environment a`,
    });
    expect(by('web').login).toBe(`mcprt --home ${home} mcp login web`);
  });

  it('pick up a login done elsewhere: the registration reconnects and its tools appear', async () => {
    // What `mcprt mcp login locked --environment a` in a terminal leaves in the file store.
    const record = {
      server_name: 'locked',
      environment_id: 'a',
      server_url: url,
      client_id: 'test-client',
      client: { client_id: 'test-client' },
      access_token: 'the-real-token-123456',
      token_type: 'Bearer',
      scopes: [],
    };
    writeFileSync(
      join(home, CREDENTIALS_FILE_NAME),
      JSON.stringify({ [credentialStoreKey({ environmentId: 'a', name: 'locked' }, url)]: record }),
      { mode: 0o600 },
    );
    const names = await waitFor(
      () => toolLists.find((list) => list.includes('a__locked__echo')),
      20_000,
      'the logged-in server to reconnect and list its tools',
    );
    expect(names).toContain('a__shared__echo');
    expect(names.filter((n) => n.startsWith('web__'))).toEqual([]); // still not logged in
    const result = await gateway.client.callTool({
      name: 'a__locked__echo',
      arguments: { message: 'in' },
    });
    expect(texts(result)).toEqual(['http: in']);
    expect(gateway.stderr()).toContain('credentials for `locked@a` are stored now; reconnecting');
  });
});
