// Tool calls through the real app-server process and the SDK: Codex-valid items and progress,
// cancellation reaching the server, elicitation relayed per environment, durable history.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { McprtClient } from '@mcprt/sdk';

import { assertCodexSchema } from '../helpers/codexSchema.js';
import {
  arr,
  echoServer,
  EVERYTHING_SERVER,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { historyBytes, recoveredHistory } from '../helpers/history.js';
import type { Message } from '../helpers/rpcClient.js';
import { CLI, RawAppServer } from '../helpers/rpcClient.js';

const cancelLog = join(tempDir(), 'cancel.log');
const sharedIn = (env: string) =>
  echoServer(`environments.${env}.mcp_servers.shared`, `shared-${env}`).replace(
    `"shared-${env}"]`,
    `"shared-${env}", "--cancel-log", ${JSON.stringify(cancelLog)}]`,
  );
const CONFIG =
  `[mcp_servers.everything]\ncommand = ${q(NODE)}\nargs = ${arr([EVERYTHING_SERVER, 'stdio'])}\nstartup_timeout_sec = 30\n` +
  shExecEnvironment('alpha', tempDir()) +
  shExecEnvironment('beta', tempDir()) +
  sharedIn('alpha') +
  sharedIn('beta') +
  `[history]\nredact_keys = ["password", "apiKey"]\nmax_result_bytes = 1024\n`;

type Params = Record<string, unknown>;
const itemOf = (m: Message) =>
  (m.params as { item: { id: string; status: string; environmentId: string | null } }).item;

describe('tool calls through the app-server', () => {
  let home: string;
  let server: RawAppServer;
  let threadId: string;

  beforeAll(async () => {
    home = makeHome(CONFIG);
    server = RawAppServer.start(home);
    await server.initialize();
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      environments: [
        { environmentId: 'alpha', cwd: tempDir() },
        { environmentId: 'beta', cwd: tempDir() },
      ],
    });
    threadId = thread.id;
    for (const [name, env] of [
      ['everything', null],
      ['shared', 'alpha'],
      ['shared', 'beta'],
    ] as const) {
      await server.waitFor(
        (m) =>
          m.method === 'mcpServer/startupStatus/updated' &&
          (m.params as Params)['name'] === name &&
          (m.params as Params)['environmentId'] === env &&
          (m.params as Params)['status'] === 'ready',
        40_000,
      );
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('announces each call as Codex mcpToolCall items carrying environmentId, with progress by item id', async () => {
    const reply = await server.request('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      environmentId: 'alpha',
      tool: 'progress',
      // Steps 150 ms apart: progress closer than the tracker's 20 ms spacing is thinned by
      // design, and a loaded 2-core machine can bunch 20 ms steps together.
      arguments: { steps: 3, interval: 150 },
    });
    expect(text(reply.result)).toBe('shared-alpha did 3 steps');
    const started = server.notifications('item/started').at(-1)!;
    const completed = await server.waitFor(
      (m) => m.method === 'item/completed' && itemOf(m).id === itemOf(started).id,
    );
    assertCodexSchema('ItemStartedNotification', started.params);
    assertCodexSchema('ItemCompletedNotification', completed.params);
    // Item ids are time-ordered (version 7) UUIDs: the history's id index grows at its end.
    expect(itemOf(started).id).toMatch(
      /^call_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(itemOf(started)).toMatchObject({
      type: 'mcpToolCall',
      server: 'shared',
      tool: 'progress',
      status: 'inProgress',
      environmentId: 'alpha',
      arguments: { steps: 3 },
    });
    expect(itemOf(completed)).toMatchObject({
      status: 'completed',
      environmentId: 'alpha',
      error: null,
      result: { content: [{ type: 'text', text: 'shared-alpha did 3 steps' }] },
    });
    const progress = server
      .notifications('item/mcpToolCall/progress')
      .filter((m) => (m.params as Params)['itemId'] === itemOf(started).id);
    expect(progress.map((m) => (m.params as Params)['message'])).toEqual([
      'shared-alpha step 1',
      'shared-alpha step 2',
      'shared-alpha step 3',
    ]);
    for (const m of progress) assertCodexSchema('McpToolCallProgressNotification', m.params);
  });

  it('completes an isError call as a failed item with the result attached', async () => {
    const reply = await server.request('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      environmentId: 'beta',
      tool: 'fail',
    });
    expect(reply.result).toEqual({
      content: [{ type: 'text', text: 'shared-beta failed on purpose' }],
      isError: true,
    });
    const completed = await server.waitFor(
      (m) => m.method === 'item/completed' && itemOf(m).status === 'failed',
    );
    assertCodexSchema('ItemCompletedNotification', completed.params);
    expect(itemOf(completed)).toMatchObject({
      environmentId: 'beta',
      result: { content: [{ type: 'text', text: 'shared-beta failed on purpose' }] },
    });
  });

  it('cancels an in-flight call by item id; the MCP server receives notifications/cancelled', async () => {
    const pending = server.request('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      environmentId: 'beta',
      tool: 'sleep',
      arguments: { ms: 30_000 },
    });
    const started = await server.waitFor(
      (m) =>
        m.method === 'item/started' &&
        (m.params as { item: { tool: string } }).item.tool === 'sleep',
    );
    // item/started is announced just before the request goes out: give it time to reach the
    // server, so the server itself sees the cancellation (not only our side).
    await new Promise((r) => setTimeout(r, 300));
    const cancel = await server.call('mcpServer/tool/cancel', {
      threadId,
      itemId: itemOf(started).id,
    });
    expect(cancel).toEqual({ cancelled: true });
    const reply = await pending;
    expect(reply.error?.code).toBe(-32603);
    const line = await waitFor(
      () => existsSync(cancelLog) && readFileSync(cancelLog, 'utf8'),
      15_000,
      'cancel log',
    );
    expect(line).toMatch(/^shared-beta cancelled after \d+ ms/m);
    expect(
      await server.call('mcpServer/tool/cancel', { threadId, itemId: itemOf(started).id }),
    ).toEqual({ cancelled: false });
  });

  it('records calls durably with redacted arguments and capped results; history/list filters by environment', async () => {
    await server.call('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      environmentId: 'alpha',
      tool: 'echo',
      arguments: {
        message: 'x'.repeat(5000),
        password: 'hunter2-top-secret',
        nested: { apiKey: 'key-very-secret' },
      },
    });
    const alpha = await server.call<{ data: Params[] }>('history/list', {
      threadId,
      environmentId: 'alpha',
    });
    expect(alpha.data.length).toBeGreaterThanOrEqual(2);
    expect(alpha.data.every((r) => r['environmentId'] === 'alpha')).toBe(true);
    const echo = alpha.data.find((r) => r['tool'] === 'echo')!;
    expect(echo['arguments']).toEqual({
      message: 'x'.repeat(5000),
      password: '[REDACTED]',
      nested: { apiKey: '[REDACTED]' },
    });
    expect(echo['resultTruncated']).toBe(true);
    expect(echo['result']).toMatchObject({ truncated: true });
    const beta = await server.call<{ data: Params[] }>('history/list', {
      threadId,
      environmentId: 'beta',
      status: 'failed',
    });
    expect(beta.data.map((r) => r['tool'])).toEqual(['fail']);
    const cancelled = await server.call<{ data: Params[] }>('history/list', {
      threadId,
      status: 'cancelled',
    });
    expect(cancelled.data.map((r) => `${String(r['tool'])}@${String(r['environmentId'])}`)).toEqual(
      ['sleep@beta'],
    );
    const onDisk = historyBytes(home); // database, WAL and journal
    for (const secret of ['hunter2-top-secret', 'key-very-secret']) {
      expect(onDisk).not.toContain(secret);
    }
  });
});

describe('elicitation through the app-server and the SDK', () => {
  it("answers server-everything's elicitation and two same-named servers' concurrent ones, each its own", async () => {
    const client = await McprtClient.spawn({
      args: [CLI, '--home', makeHome(CONFIG), 'app-server'],
      cwd: REPO_ROOT,
    });
    try {
      const requests: Params[] = [];
      client.handleRequest('mcpServer/elicitation/request', async (params) => {
        requests.push(params as Params);
        assertCodexSchema('McpServerElicitationRequestParams', params);
        if (params.serverName === 'everything')
          return {
            action: 'accept',
            content: { name: 'Ada', check: true, email: 'ada@example.com' },
          };
        await waitFor(
          () => requests.filter((r) => r['serverName'] === 'shared').length === 2,
          10_000,
          'both elicitations',
        );
        return { action: 'accept', content: { answer: `from ${String(params.environmentId)}` } };
      });
      const { thread } = await client.request('thread/start', {
        environments: [
          { environmentId: 'alpha', cwd: tempDir() },
          { environmentId: 'beta', cwd: tempDir() },
        ],
      });
      const everything = await client.request('mcpServer/tool/call', {
        threadId: thread.id,
        server: 'everything',
        tool: 'trigger-elicitation-request',
        arguments: {},
      });
      expect(JSON.stringify(everything.content)).toContain('Ada');
      const [alpha, beta] = await Promise.all(
        ['alpha', 'beta'].map((env) =>
          client.request('mcpServer/tool/call', {
            threadId: thread.id,
            server: 'shared',
            environmentId: env,
            tool: 'ask',
          }),
        ),
      );
      expect(JSON.parse(text(alpha))).toEqual({
        action: 'accept',
        content: { answer: 'from alpha', count: 7 },
      });
      expect(JSON.parse(text(beta))).toEqual({
        action: 'accept',
        content: { answer: 'from beta', count: 7 },
      });
      expect(
        requests
          .map(
            (r) =>
              `${String(r['serverName'])}@${String(r['environmentId'])}:${String(r['turnId'])}`,
          )
          .sort(),
      ).toEqual(['everything@null:null', 'shared@alpha:null', 'shared@beta:null']);
    } finally {
      await client.close();
    }
  });

  it('cancels through the SDK AbortSignal ($/cancelRequest) and the server sees it', async () => {
    const log = join(tempDir(), 'cancel.log');
    const home = makeHome(
      echoServer('mcp_servers.s', 's').replace(
        '"s"]',
        `"s", "--cancel-log", ${JSON.stringify(log)}]`,
      ),
    );
    const client = await McprtClient.spawn({
      args: [CLI, '--home', home, 'app-server'],
      cwd: REPO_ROOT,
    });
    try {
      const { thread } = await client.request('thread/start', {});
      await client.request('mcpServer/tool/call', {
        threadId: thread.id,
        server: 's',
        tool: 'echo',
        arguments: { message: 'warm' },
      });
      const controller = new AbortController();
      const call = client.request(
        'mcpServer/tool/call',
        { threadId: thread.id, server: 's', tool: 'sleep', arguments: { ms: 30_000 } },
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(new Error('stop')), 300);
      await expect(call).rejects.toThrow('stop');
      const line = await waitFor(
        () => existsSync(log) && readFileSync(log, 'utf8'),
        5000,
        'cancel log',
      );
      expect(line).toMatch(/^s cancelled after \d+ ms/);
      const history = await client.request('history/list', {
        threadId: thread.id,
        status: 'cancelled',
      });
      expect(history.data.map((r) => r.tool)).toEqual(['sleep']);
    } finally {
      await client.close();
    }
  });
});

describe('history durability', () => {
  it('survives kill -9 of the app-server right after a call completes', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e'));
    const server = RawAppServer.start(home);
    await server.initialize();
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {});
    const reply = await server.request('mcpServer/tool/call', {
      threadId: thread.id,
      server: 'e',
      tool: 'echo',
      arguments: { message: 'durable' },
    });
    expect(text(reply.result)).toBe('e: durable');
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    expect(recoveredHistory<Params>(home, 'tool, status, arguments, result')).toEqual([
      {
        tool: 'echo',
        status: 'completed',
        arguments: '{"message":"durable"}',
        result: JSON.stringify(reply.result),
      },
    ]);
  });

  it('mcprt history lists calls with their environments', async () => {
    const home = makeHome(
      shExecEnvironment('box', tempDir()) + echoServer('environments.box.mcp_servers.e', 'e'),
    );
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(NODE, [CLI, '--home', home, ...args], { cwd: REPO_ROOT });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.once('exit', (code) => resolve({ code, stdout }));
      });
    expect(
      (
        await run([
          'call',
          'e',
          'echo',
          '--environment',
          'box',
          '--args',
          '{"message":"hi","token":"tok-123"}',
        ])
      ).code,
    ).toBe(0);
    const listed = await run(['history']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /completed\s+e@box\.echo\(\{"message":"hi","token":"\[REDACTED\]"\}\) \d+ ms/,
    );
    const json = JSON.parse((await run(['history', '--json', '--environment', 'box'])).stdout) as {
      data: Params[];
    };
    expect(json.data.map((r) => r['environmentId'])).toEqual(['box']);
    expect((await run(['history', '--json', '--thread-wide'])).stdout).toContain('"data": []');
  });
});
