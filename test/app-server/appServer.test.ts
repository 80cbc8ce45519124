// The app-server over stdio as a real process: two environments with a same-named server, every
// response and notification checked against Codex 0.171's schema, routing errors, bad input.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertCodexSchema } from '../helpers/codexSchema.js';
import { echoServer, makeHome, shExecEnvironment, tempDir } from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { RawAppServer } from '../helpers/rpcClient.js';

const pidLog = join(tempDir(), 'pids.log');

function config(): string {
  const pid = (name: string) =>
    echoServer(`__T__`, name).replace(
      `"${name}"]`,
      `"${name}", "--pid-log", ${JSON.stringify(pidLog)}]`,
    );
  return (
    pid('shared-tw').replace('__T__', 'mcp_servers.shared') +
    `[mcp_servers.broken]\ncommand = "no-such-command-for-mcprt"\n` +
    echoServer('mcp_servers.off', 'off', 'enabled = false') +
    shExecEnvironment('alpha', tempDir()) +
    shExecEnvironment('beta', tempDir()) +
    pid('shared-alpha').replace('__T__', 'environments.alpha.mcp_servers.shared') +
    pid('shared-beta').replace('__T__', 'environments.beta.mcp_servers.shared')
  );
}

const CONFIG = config();

describe('app-server over stdio', () => {
  let server: RawAppServer;
  let home: string;
  let threadId: string;

  beforeAll(async () => {
    home = makeHome(CONFIG);
    server = RawAppServer.start(home);
    const init = await server.initialize();
    expect(init.result).toMatchObject({ codexHome: home, platformFamily: 'unix' });
    expect(init).not.toHaveProperty('jsonrpc');
  });
  afterAll(async () => {
    expect(await server.close()).toBe(0);
  });

  it('starts a thread with two environments and reports startup per scope, schema-valid', async () => {
    const result = await server.call<{ thread: { id: string; environments: unknown[] } }>(
      'thread/start',
      {
        ephemeral: true,
        environments: [
          { environmentId: 'alpha', cwd: tempDir() },
          { environmentId: 'beta', cwd: tempDir() },
        ],
      },
    );
    threadId = result.thread.id;
    expect(result.thread.environments).toHaveLength(2);
    const started = await server.waitFor((m) => m.method === 'thread/started');
    expect(started).toHaveProperty('emittedAtMs');
    // thread/started comes after the response.
    const order = server.messages.map((m) => m.method ?? `response:${String(m.id)}`);
    expect(order.indexOf('thread/started')).toBeGreaterThan(
      order.findIndex((x) => x.startsWith('response:2')),
    );

    for (const [name, env] of [
      ['shared', null],
      ['shared', 'alpha'],
      ['shared', 'beta'],
    ] as const) {
      await server.waitFor(
        (m) =>
          m.method === 'mcpServer/startupStatus/updated' &&
          (m.params as { name: string; environmentId: string | null; status: string }).name ===
            name &&
          (m.params as { environmentId: string | null }).environmentId === env &&
          (m.params as { status: string }).status === 'ready',
      );
    }
    const failed = await server.waitFor(
      (m) =>
        m.method === 'mcpServer/startupStatus/updated' &&
        (m.params as { status: string }).status === 'failed',
    );
    expect(failed.params).toMatchObject({
      threadId,
      name: 'broken',
      environmentId: null,
      failureReason: null,
    });
    const updates = server.notifications('mcpServer/startupStatus/updated');
    expect(updates.some((m) => (m.params as { name: string }).name === 'off')).toBe(false);
    for (const u of updates) assertCodexSchema('McpServerStatusUpdatedNotification', u.params);
  });

  it('lists every registration, each with its environmentId, schema-valid', async () => {
    const list = await server.call<{ data: Record<string, unknown>[]; nextCursor: string | null }>(
      'mcpServerStatus/list',
      { threadId },
    );
    assertCodexSchema('ListMcpServerStatusResponse', list);
    expect(
      list.data.map(
        (s) => `${String(s['name'])}@${String(s['environmentId'])}:${String(s['runtimeStatus'])}`,
      ),
    ).toEqual([
      'broken@null:failed',
      'off@null:disabled',
      'shared@null:connected',
      'shared@alpha:connected',
      'shared@beta:connected',
    ]);
    const alpha = list.data[3]!;
    expect(Object.keys(alpha['tools'] as object)).toContain('echo');
    expect(alpha['modelToolNames']).toMatchObject({ echo: 'mcp__alpha__shared__echo' });
    expect(list.data[0]!['toolsError']).toMatch(/command not found/);

    const narrowed = await server.call<{ data: { environmentId: string }[] }>(
      'mcpServerStatus/list',
      {
        threadId,
        serverName: 'shared',
        environmentId: 'beta',
      },
    );
    expect(narrowed.data.map((s) => s.environmentId)).toEqual(['beta']);
    const paged = await server.call<{ data: unknown[]; nextCursor: string | null }>(
      'mcpServerStatus/list',
      {
        threadId,
        limit: 2,
        cursor: '2',
        detail: 'toolsAndAuthOnly',
      },
    );
    expect(paged.data).toHaveLength(2);
    expect(paged.nextCursor).toBe('4');
    expect(await server.request('mcpServerStatus/list', { threadId, cursor: 'x' })).toMatchObject({
      error: { code: -32600, message: 'invalid cursor: x' },
    });
    expect(await server.request('mcpServerStatus/list', { threadId, cursor: '99' })).toMatchObject({
      error: { code: -32600, message: 'cursor 99 exceeds total MCP servers 5' },
    });
    expect(
      await server.request('mcpServerStatus/list', { threadId, detail: 'bogus' }),
    ).toMatchObject({
      error: {
        code: -32600,
        message: 'Invalid request: unknown variant `bogus`, expected `full` or `toolsAndAuthOnly`',
      },
    });
  });

  it('calls and reads by environment; omitted environment follows the legacy rule', async () => {
    const call = (environmentId?: string) =>
      server.request('mcpServer/tool/call', {
        threadId,
        server: 'shared',
        tool: 'echo',
        arguments: { message: 'hi' },
        ...(environmentId ? { environmentId } : {}),
      });
    for (const [env, expected] of [
      ['alpha', 'shared-alpha: hi'],
      ['beta', 'shared-beta: hi'],
      [undefined, 'shared-tw: hi'],
    ] as const) {
      const reply = await call(env);
      assertCodexSchema('McpServerToolCallResponse', reply.result);
      expect(reply.result).toEqual({ content: [{ type: 'text', text: expected }] });
    }
    const read = await server.request('mcpServer/resource/read', {
      threadId,
      server: 'shared',
      environmentId: 'beta',
      uri: 'fixture://greeting',
    });
    assertCodexSchema('McpResourceReadResponse', read.result);
    expect(read.result).toEqual({
      contents: [{ uri: 'fixture://greeting', text: 'hello from shared-beta' }],
      originCallId: null,
    });
  });

  it('answers routing errors with the brief texts and codes', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ environmentId: 'nowhere' }, -32600, 'unknown environment id `nowhere`'],
      [{ server: 'nosuch' }, -32603, "unknown MCP server 'nosuch'"],
      [{ environmentId: 'local' }, -32603, "unknown MCP server 'shared (environment local)'"],
      [
        { server: 'off' },
        -32603,
        'MCP server `off` is not available: it is disabled in the configuration',
      ],
      [{ threadId: 'no-such-thread' }, -32600, 'thread not found: no-such-thread'],
      [
        { arguments: 'not-an-object' },
        -32603,
        'tool call failed for `shared/echo`: MCP tool arguments must be a JSON object, got "not-an-object"',
      ],
    ];
    for (const [override, code, message] of cases) {
      const reply = await server.request('mcpServer/tool/call', {
        threadId,
        server: 'shared',
        tool: 'echo',
        arguments: { message: 'x' },
        ...override,
      });
      expect(reply.error, JSON.stringify(override)).toEqual({ code, message });
    }
    const missing = await server.request('mcpServer/tool/call', { threadId, server: 'shared' });
    expect(missing.error).toEqual({
      code: -32600,
      message: 'Invalid request: missing field `tool`',
    });
    const broken = await server.request('mcpServer/tool/call', {
      threadId,
      server: 'broken',
      tool: 'echo',
    });
    expect(broken.error?.code).toBe(-32603);
    expect(broken.error?.message).toMatch(
      /^MCP server `broken` is not available: MCP client for `broken` failed to start: command not found/,
    );
  });

  it('refuses an environment the thread did not select', async () => {
    const other = await server.call<{ thread: { id: string } }>('thread/start', {
      environments: [{ environmentId: 'alpha', cwd: tempDir() }],
    });
    const reply = await server.request('mcpServer/tool/call', {
      threadId: other.thread.id,
      server: 'shared',
      environmentId: 'beta',
      tool: 'echo',
      arguments: { message: 'x' },
    });
    expect(reply.error).toEqual({
      code: -32600,
      message: `environment \`beta\` is not selected by thread ${other.thread.id}`,
    });
    for (const env of [null, 'alpha']) {
      await server.waitFor(
        (m) =>
          m.method === 'mcpServer/startupStatus/updated' &&
          (m.params as { threadId: string }).threadId === other.thread.id &&
          (m.params as { name: string }).name === 'shared' &&
          (m.params as { environmentId: string | null }).environmentId === env &&
          (m.params as { status: string }).status === 'ready',
      );
    }
    const start = await server.request('thread/start', {
      environments: [{ environmentId: 'mars', cwd: '/' }],
    });
    expect(start.error).toEqual({ code: -32600, message: 'unknown environment id `mars`' });
  });

  it('keeps the connection usable after malformed, invalid, unknown and oversized messages', async () => {
    server.writeLine('{"method": "mcpServerStatus/list", "id": 9001,');
    const parseError = await server.waitFor((m) => m.error?.code === -32700);
    expect(parseError.id).toBeNull();
    expect(parseError.error?.message).toMatch(/^Parse error: /);

    const unknown = await server.request('no/such/method', {});
    expect(unknown.error).toEqual({ code: -32601, message: 'Method not found: no/such/method' });

    server.writeLine('[1,2,3]');
    await server.waitFor((m) => m.error?.message === 'Invalid request: expected a JSON object');

    const list = await server.request('mcpServerStatus/list', { threadId, serverName: 'shared' });
    expect((list.result as { data: unknown[] }).data).toHaveLength(3);
  });

  it('mirrors the client: "jsonrpc":"2.0" in, "jsonrpc":"2.0" out', async () => {
    const reply = await server.request(
      'mcpServerStatus/list',
      { threadId, serverName: 'off' },
      { jsonrpc: '2.0' },
    );
    expect(reply['jsonrpc']).toBe('2.0');
  });

  it('serves thread-less status from a shared probe, not a fresh spawn per call', async () => {
    const before = readFileSync(pidLog, 'utf8').trim().split('\n').length;
    for (let i = 0; i < 3; i++) {
      const list = await server.call<{
        data: { name: string; environmentId: string | null; runtimeStatus: string }[];
      }>('mcpServerStatus/list', {});
      expect(list.data.filter((s) => s.name === 'shared').map((s) => s.environmentId)).toEqual([
        null,
        'alpha',
        'beta',
      ]);
    }
    const after = readFileSync(pidLog, 'utf8').trim().split('\n').length;
    expect(after - before).toBe(3); // one probe session: three `shared` registrations, once.
  });

  it('reloads config: unchanged servers keep their process, the thread sees new servers', async () => {
    const pidsBefore = readFileSync(pidLog, 'utf8');
    writeFileSync(
      join(home, 'config.toml'),
      `${CONFIG}\n${echoServer('mcp_servers.added', 'added')}`,
    );
    expect(await server.call('config/mcpServer/reload', {})).toEqual({});
    await server.waitFor(
      (m) =>
        m.method === 'mcpServer/startupStatus/updated' &&
        (m.params as { name: string; status: string; threadId: string }).name === 'added' &&
        (m.params as { status: string }).status === 'ready' &&
        (m.params as { threadId: string }).threadId === threadId,
    );
    const reply = await server.request('mcpServer/tool/call', {
      threadId,
      server: 'added',
      tool: 'echo',
      arguments: { message: 'new' },
    });
    expect(reply.result).toEqual({ content: [{ type: 'text', text: 'added: new' }] });
    // No `shared` registration was restarted by the reload (the probe was dropped, not restarted).
    await new Promise((r) => setTimeout(r, 300));
    expect(readFileSync(pidLog, 'utf8'), `before:\n${pidsBefore}\n${server.stderr.join('')}`).toBe(
      pidsBefore,
    );

    writeFileSync(join(home, 'config.toml'), '[mcp_servers.x\n');
    const bad = await server.request('config/mcpServer/reload', {});
    expect(bad.error?.code).toBe(-32603);
    expect(bad.error?.message).toMatch(
      /^failed to refresh MCP servers: .*config\.toml:1:\d+: invalid TOML/,
    );
    const still = await server.request('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      tool: 'echo',
      arguments: { message: 'ok' },
    });
    expect(still.result).toEqual({ content: [{ type: 'text', text: 'shared-tw: ok' }] });
  });
});

describe('app-server bad input limits', () => {
  it('refuses an oversized message without crashing and keeps serving', async () => {
    const server = RawAppServer.start(makeHome(''), ['--max-message-bytes', '4096']);
    try {
      await server.initialize();
      server.writeLine(
        JSON.stringify({
          method: 'mcpServerStatus/list',
          id: 77,
          params: { serverName: 'x'.repeat(10_000) },
        }),
      );
      const refused = await server.waitFor(
        (m) =>
          typeof m.error?.message === 'string' && m.error.message.includes('exceeds the maximum'),
      );
      expect(refused).toMatchObject({ id: null, error: { code: -32600 } });
      const ok = await server.request('mcpServerStatus/list', {});
      expect(ok.result).toEqual({ data: [], nextCursor: null });
      expect(server.messages.some((m: Message) => m.id === 77)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('requires initialize first', async () => {
    const server = RawAppServer.start(makeHome(''));
    try {
      const reply = await server.request('mcpServerStatus/list', {});
      expect(reply.error).toEqual({
        code: -32600,
        message: 'Not initialized: send `initialize` before `mcpServerStatus/list`',
      });
    } finally {
      await server.close();
    }
  });
});
