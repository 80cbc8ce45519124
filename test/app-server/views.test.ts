// Views on the app-server (docs/tool-shaping.md), through the real in-process app-server, the SDK
// and real fixture servers in the thread-wide scope and an exec environment: `thread/start
// { view }` (and its bad inputs, which start nothing), a call outside the view refused,
// `mcpServerStatus/list` showing only the view's tools (still valid for Codex's schema),
// `mcpServer/tool/search` and `thread/toolView/get` with every bad-input path and their exact
// errors.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AppServer } from '@mcprt/app-server';
import {
  McpServerToolSearchResult,
  ThreadStartResult,
  ThreadToolViewGetResult,
} from '@mcprt/protocol';
import { Runtime } from '@mcprt/runtime';
import { ErrorCode, McprtClient } from '@mcprt/sdk';

import { InProcessTransport } from '../../packages/cli/src/inProcess.js';
import { assertCodexSchema } from '../helpers/codexSchema.js';
import {
  arr,
  ECHO_SERVER,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';
import { REVIEW_LOOKUP_BAD } from '../helpers/views.js';

const PID_LOG = join(tempDir(), 'pids.log');

const CONFIG =
  `[mcp_servers.docs]\ncommand = ${q(NODE)}\n` +
  `args = ${arr([ECHO_SERVER, '--name', 'docs', '--pid-log', PID_LOG])}\n` +
  `enabled_tools = ["echo", "whoami", "fail"]\n\n` +
  shExecEnvironment('a', tempDir()) +
  `[environments.a.mcp_servers.shared]\ncommand = ${q(NODE)}\n` +
  `args = ${arr([ECHO_SERVER, '--name', 'shared-a'])}\n` +
  `enabled_tools = ["echo", "whoami", "env"]\n` +
  REVIEW_LOOKUP_BAD;

const REFUSAL = 'tool `fail` of `docs` is not in view `review`; refused';
const UNKNOWN_OPS = 'unknown view `ops` (defined: `review`, `lookup`)';

describe('views on the app-server', () => {
  let runtime: Runtime;
  let server: AppServer;
  let client: McprtClient;
  let other: McprtClient;
  let threadId: string;

  beforeAll(async () => {
    const home = makeHome(CONFIG);
    runtime = Runtime.load({ home });
    server = new AppServer({ runtime, home, log: () => {} });
    client = await McprtClient.create(new InProcessTransport(server));
    other = await McprtClient.create(new InProcessTransport(server));
  });
  afterAll(async () => {
    await client?.close();
    await other?.close();
    await server?.close();
  });

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => expect.fail('resolved'),
      (e: Error) => e,
    );

  it('refuses an unknown, invalid or empty view with its exact error, starting nothing', async () => {
    const errors = [];
    for (const view of ['ops', 'bad', '']) {
      const error = await failure(client.request('thread/start', { view }));
      expect(error).toMatchObject({ code: ErrorCode.InvalidRequest });
      errors.push(error.message);
    }
    expect(errors[0]).toBe(UNKNOWN_OPS);
    expect(errors[1]).toMatch(/^view `bad` is invalid: .*config\.toml:\d+:\d+: /);
    expect(errors[2]).toBe('Invalid request: invalid value: expected string >= 1 at `view`');
    expect(server.state.threads.all()).toEqual([]);
    expect(existsSync(PID_LOG)).toBe(false); // no server process was spawned
  });

  it('starts a thread under a view and names it on the thread; without one the thread has no `view`', async () => {
    const started = new Promise<unknown>((resolve) => {
      const off = client.on('thread/started', (p) => {
        off();
        resolve(p.thread);
      });
    });
    const result = await client.request('thread/start', { view: 'review' });
    expect(ThreadStartResult.safeParse(result).success).toBe(true);
    expect(result.thread.view).toBe('review');
    expect(await started).toEqual(result.thread);
    threadId = result.thread.id;

    const plain = await client.request('thread/start', { view: null });
    expect('view' in plain.thread).toBe(false);
  });

  it('refuses a call to a tool outside the view with the runtime text; calls inside it work', async () => {
    const ok = await client.request('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      environmentId: 'a',
      tool: 'echo',
      arguments: { message: 'in view' },
    });
    expect(ok.content).toEqual([{ type: 'text', text: 'shared-a: in view' }]);
    const refused = await failure(
      client.request('mcpServer/tool/call', { threadId, server: 'docs', tool: 'fail' }),
    );
    expect(refused).toMatchObject({ code: ErrorCode.InternalError, message: REFUSAL });
  });

  it('mcpServerStatus/list shows every server, each with the view’s tools under the view’s names', async () => {
    await client.request('thread/toolView/get', { threadId }); // its servers have settled
    const list = await client.request('mcpServerStatus/list', { threadId });
    assertCodexSchema('ListMcpServerStatusResponse', list);
    const shown = list.data.map((s) => ({
      server: `${s.name}@${String(s.environmentId)}`,
      tools: Object.keys(s.tools).sort(),
      names: s.modelToolNames,
      resources: s.resources.length,
    }));
    expect(shown).toEqual([
      {
        server: 'docs@null',
        tools: ['echo', 'whoami'],
        names: { echo: 'docs__echo', whoami: 'docs__whoami' },
        resources: 1,
      },
      {
        server: 'shared@a',
        tools: ['echo', 'whoami'],
        names: { echo: 'echo_a', whoami: 'a__shared__whoami' },
        resources: 1,
      },
    ]);
    // Under `lookup`, `docs` is outside the view: kept, with no tools and no resources.
    const { thread } = await client.request('thread/start', { view: 'lookup' });
    await client.request('thread/toolView/get', { threadId: thread.id }); // servers settled
    const lookup = await client.request('mcpServerStatus/list', { threadId: thread.id });
    expect(
      lookup.data.map((s) => [s.name, s.runtimeStatus, Object.keys(s.tools), s.resources.length]),
    ).toEqual([
      ['docs', 'connected', [], 0],
      ['shared', 'connected', ['echo', 'whoami', 'env'], 1],
    ]);
  });

  it('mcpServer/tool/search searches the thread’s view, or the view named', async () => {
    const own = await client.request('mcpServer/tool/search', { threadId, query: 'echo message' });
    expect(McpServerToolSearchResult.safeParse(own).success).toBe(true);
    expect(own.tools.map((t) => t.name).sort()).toEqual(['docs__echo', 'echo_a']);
    expect(own.tools.find((t) => t.name === 'echo_a')).toMatchObject({
      server: 'shared',
      environmentId: 'a',
      description: 'Echo the message back',
      score: expect.any(Number),
    });
    const one = await client.request('mcpServer/tool/search', {
      threadId,
      query: 'echo message',
      limit: 1,
    });
    expect(one.tools).toHaveLength(1);
    // Another view: its own names; `docs` is not in it.
    const lookup = await client.request('mcpServer/tool/search', {
      threadId,
      query: 'read an environment variable',
      view: 'lookup',
    });
    expect(lookup.tools[0]).toMatchObject({ name: 'a__shared__env', environmentId: 'a' });
    expect(lookup.tools.every((t) => t.server === 'shared')).toBe(true);
    // null is the thread's own view, as absent.
    const nulled = await client.request('mcpServer/tool/search', {
      threadId,
      query: 'echo message',
      view: null,
    });
    expect(nulled).toEqual(own);
  });

  it('mcpServer/tool/search refuses bad params, an unknown thread and an unknown view', async () => {
    const cases: [unknown, number, string][] = [
      [
        { threadId, query: '' },
        -32600,
        'Invalid request: invalid value: expected string >= 1 at `query`',
      ],
      [
        { threadId, query: '  ' },
        -32600,
        'Invalid request: invalid value: expected a non-blank string at `query`',
      ],
      [{ threadId }, -32600, 'Invalid request: missing field `query`'],
      [
        { threadId, query: 'x', limit: 0 },
        -32600,
        'Invalid request: invalid value: expected number >= 1 at `limit`',
      ],
      [
        { threadId, query: 'x', limit: 51 },
        -32600,
        'Invalid request: invalid value: expected number <= 50 at `limit`',
      ],
      [
        { threadId, query: 'x', limit: 2.5 },
        -32600,
        'Invalid request: invalid type: expected integer at `limit`',
      ],
      [
        { threadId, query: 'x', view: '' },
        -32600,
        'Invalid request: invalid value: expected string >= 1 at `view`',
      ],
      [{ threadId, query: 'x', view: 'ops' }, -32600, UNKNOWN_OPS],
      [{ threadId: 'nope', query: 'x' }, -32600, 'thread not found: nope'],
    ];
    for (const [params, code, message] of cases) {
      const error = await failure(client.request('mcpServer/tool/search', params as never));
      expect(
        { code: (error as { code?: number }).code, message: error.message },
        JSON.stringify(params),
      ).toEqual({ code, message });
    }
    // Another connection's thread is not found either.
    const foreign = await failure(other.request('mcpServer/tool/search', { threadId, query: 'x' }));
    expect(foreign).toMatchObject({ code: -32600, message: `thread not found: ${threadId}` });
  });

  it('thread/toolView/get gives the view’s cost per server and in total', async () => {
    const review = await client.request('thread/toolView/get', { threadId });
    expect(ThreadToolViewGetResult.safeParse(review).success).toBe(true);
    expect(review).toMatchObject({
      view: 'review',
      tools: 4,
      searching: false,
      thresholdTokens: 50,
      overThreshold: true,
    });
    expect(review.servers.map((s) => [s.server, s.environmentId, s.tools])).toEqual([
      ['docs', null, 2],
      ['shared', 'a', 2],
    ]);
    expect(review.allTokens).toBe(review.servers.reduce((n, s) => n + s.tokens, 0));
    expect(review.listedTokens).toBe(review.allTokens);

    const lookup = await client.request('thread/toolView/get', { threadId, view: 'lookup' });
    expect(lookup).toMatchObject({
      view: 'lookup',
      tools: 3,
      searching: true,
      overThreshold: false,
    });
    expect(lookup.thresholdTokens).toBe(10_000);
    expect(lookup.listedTokens).toBe(lookup.searchTokens);

    const { thread } = await client.request('thread/start', {});
    const all = await client.request('thread/toolView/get', { threadId: thread.id });
    expect(all).toMatchObject({ view: null, tools: 6, searching: false, thresholdTokens: null });
    expect(all.overThreshold).toBe(false);
  });

  it('thread/toolView/get refuses an unknown or foreign thread, an unknown view and bad params', async () => {
    const cases: [unknown, string][] = [
      [{ threadId: 'nope' }, 'thread not found: nope'],
      [{ threadId, view: 'ops' }, UNKNOWN_OPS],
      [{ threadId, view: 7 }, 'Invalid request: invalid type: expected string at `view`'],
      [{}, 'Invalid request: missing field `threadId`'],
    ];
    for (const [params, message] of cases) {
      const error = await failure(client.request('thread/toolView/get', params as never));
      expect(error, JSON.stringify(params)).toMatchObject({ code: -32600, message });
    }
    const foreign = await failure(other.request('thread/toolView/get', { threadId }));
    expect(foreign).toMatchObject({ code: -32600, message: `thread not found: ${threadId}` });
  });
});
