// Tool calls through the library against real servers: honoured timeouts that reach the server
// as notifications/cancelled, AbortSignal cancellation, progress, _meta rules, isError, events,
// and elicitation relayed per registration scope.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import type {
  ElicitationRequest,
  ToolCallCompleted,
  ToolCallProgress,
  ToolCallStarted,
} from '@mcprt/runtime';
import { RequestFailedError } from '@mcprt/runtime';

import {
  arr,
  echoServer,
  NODE,
  q,
  RAW_SERVER,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
// The same module instance the runtime uses (vitest resolves @mcprt/runtime to its sources).
import { schemaValidators } from '../../packages/runtime/src/connection/schemaValidators.js';

const load = useRuntimes();

const withArgs = (toml: string, name: string, extra: string[]) =>
  toml.replace(`"${name}"]`, `"${name}", ${extra.map((a) => JSON.stringify(a)).join(', ')}]`);

describe('timeouts and cancellation', () => {
  it('fails a call at tool_timeout_sec and the server receives notifications/cancelled', async () => {
    const log = join(tempDir(), 'cancel.log');
    const runtime = load(
      withArgs(echoServer('mcp_servers.slow', 'slow', 'tool_timeout_sec = 1.5'), 'slow', [
        '--cancel-log',
        log,
      ]),
    );
    const session = runtime.startSession();
    await session.ready();
    const t0 = Date.now();
    const error = await session
      .callTool({ server: 'slow', tool: 'sleep', arguments: { ms: 10_000 } })
      .catch((e: unknown) => e);
    const elapsed = Date.now() - t0;
    expect(error).toBeInstanceOf(RequestFailedError);
    expect((error as Error).message).toMatch(
      /^tools\/call to MCP server `slow` failed: .*timed out/i,
    );
    expect(elapsed).toBeGreaterThanOrEqual(1450);
    expect(elapsed).toBeLessThan(4000);
    const line = await waitFor(
      () => existsSync(log) && readFileSync(log, 'utf8'),
      5000,
      'cancel log',
    );
    expect(line).toMatch(/^slow cancelled after 1\d{3} ms/);
  });

  it('cancels an in-flight call with an AbortSignal; the server sees it and the call is recorded as cancelled', async () => {
    const log = join(tempDir(), 'cancel.log');
    const runtime = load(withArgs(echoServer('mcp_servers.s', 's'), 's', ['--cancel-log', log]));
    const session = runtime.startSession();
    await session.ready();
    const completed: ToolCallCompleted[] = [];
    session.on('toolCallCompleted', (e) => completed.push(e));
    const controller = new AbortController();
    const call = session.callTool({
      server: 's',
      tool: 'sleep',
      arguments: { ms: 20_000 },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 300);
    await expect(call).rejects.toThrow(RequestFailedError);
    const line = await waitFor(
      () => existsSync(log) && readFileSync(log, 'utf8'),
      5000,
      'cancel log',
    );
    expect(line).toMatch(/^s cancelled after \d+ ms/);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ status: 'cancelled', server: 's', tool: 'sleep' });
    // The server is still fine afterwards.
    expect(
      text(await session.callTool({ server: 's', tool: 'echo', arguments: { message: 'ok' } })),
    ).toBe('s: ok');
  });
});

describe('call events, progress and _meta', () => {
  it('emits started/progress/completed with the same id and environment identity', async () => {
    const runtime = load(
      shExecEnvironment('box', tempDir()) + echoServer('environments.box.mcp_servers.p', 'p'),
    );
    const session = runtime.startSession();
    await session.ready();
    const started: ToolCallStarted[] = [];
    const progress: ToolCallProgress[] = [];
    const completed: ToolCallCompleted[] = [];
    session.on('toolCallStarted', (e) => started.push(e));
    session.on('toolCallProgress', (e) => progress.push(e));
    session.on('toolCallCompleted', (e) => completed.push(e));
    const result = await session.callTool({
      server: 'p',
      environmentId: 'box',
      tool: 'progress',
      // Steps 150 ms apart: progress closer than the tracker's 20 ms spacing is thinned by
      // design, and a loaded 2-core machine can bunch 20 ms steps together.
      arguments: { steps: 3, interval: 150 },
      callId: 'call-1',
    });
    expect(text(result)).toBe('p did 3 steps');
    expect(started).toEqual([
      expect.objectContaining({
        id: 'call-1',
        server: 'p',
        environmentId: 'box',
        tool: 'progress',
        arguments: { steps: 3, interval: 150 },
      }),
    ]);
    expect(progress.map((p) => [p.id, p.progress, p.total, p.message])).toEqual([
      ['call-1', 1, 3, 'p step 1'],
      ['call-1', 2, 3, 'p step 2'],
      ['call-1', 3, 3, 'p step 3'],
    ]);
    expect(completed).toEqual([
      expect.objectContaining({
        id: 'call-1',
        status: 'completed',
        environmentId: 'box',
        error: null,
      }),
    ]);
  });

  it('marks isError results failed with the result attached', async () => {
    const runtime = load(echoServer('mcp_servers.f', 'f'));
    const session = runtime.startSession();
    await session.ready();
    const completed: ToolCallCompleted[] = [];
    session.on('toolCallCompleted', (e) => completed.push(e));
    const result = await session.callTool({ server: 'f', tool: 'fail' });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'f failed on purpose' }],
      isError: true,
    });
    expect(completed[0]).toMatchObject({ status: 'failed', error: null, result });
  });

  it('sets _meta.threadId (overwriting a spoofed one), keeps other keys, forwards a non-object untouched', async () => {
    const runtime = load(echoServer('mcp_servers.m', 'm'));
    const session = runtime.startSession({ threadId: 'thread-xyz' });
    await session.ready();
    const meta = async (value: unknown) =>
      JSON.parse(
        text(
          await session.callTool({
            server: 'm',
            tool: 'meta',
            ...(value !== undefined ? { meta: value } : {}),
          }),
        ),
      ) as unknown;
    // (the SDK adds its progressToken to an object _meta, since progress is requested)
    expect(await meta(undefined)).toMatchObject({ threadId: 'thread-xyz' });
    expect(await meta({ threadId: 'spoofed', custom: 'x' })).toMatchObject({
      threadId: 'thread-xyz',
      custom: 'x',
    });
  });

  it('forwards a non-object _meta untouched (seen by a raw server that echoes its params)', async () => {
    const runtime = load(`[mcp_servers.raw]\ncommand = ${q(NODE)}\nargs = ${arr([RAW_SERVER])}\n`);
    const session = runtime.startSession({ threadId: 'thread-raw' });
    await session.ready();
    const params = async (meta: unknown) =>
      JSON.parse(text(await session.callTool({ server: 'raw', tool: 't0', meta }))) as {
        _meta?: unknown;
      };
    expect((await params('not-an-object'))._meta).toBe('not-an-object');
    expect((await params([1, 2]))._meta).toEqual([1, 2]);
    expect((await params({ a: 1 }))._meta).toMatchObject({ a: 1, threadId: 'thread-raw' });
  });
});

describe('elicitation', () => {
  it('declines at once when there is no handler (never a hang)', async () => {
    const runtime = load(echoServer('mcp_servers.q', 'q'));
    const session = runtime.startSession();
    await session.ready();
    expect(JSON.parse(text(await session.callTool({ server: 'q', tool: 'ask' })))).toEqual({
      action: 'decline',
    });
  });

  it('relays per scope: same-named servers in two environments elicit concurrently, each gets its own answer', async () => {
    const runtime = load(
      shExecEnvironment('alpha', tempDir()) +
        shExecEnvironment('beta', tempDir()) +
        echoServer('environments.alpha.mcp_servers.shared', 'shared-alpha') +
        echoServer('environments.beta.mcp_servers.shared', 'shared-beta'),
    );
    const seen: ElicitationRequest[] = [];
    const release: (() => void)[] = [];
    const session = runtime.startSession({
      onElicitation: async (request) => {
        seen.push(request);
        // Hold every request until both are pending, so they are in flight at the same time.
        await new Promise<void>((resolve) => release.push(resolve));
        return { action: 'accept', content: { answer: `for ${request.environmentId}` } };
      },
    });
    await session.ready();
    const calls = ['alpha', 'beta'].map((env) =>
      session.callTool({ server: 'shared', environmentId: env, tool: 'ask' }),
    );
    await waitFor(
      () => session.pendingElicitations().length === 2,
      10_000,
      'two pending elicitations',
    );
    expect(
      session
        .pendingElicitations()
        .map((r) => `${r.serverName}@${r.environmentId}`)
        .sort(),
    ).toEqual(['shared@alpha', 'shared@beta']);
    release.forEach((r) => r());
    const [alpha, beta] = (await Promise.all(calls)).map((r) => JSON.parse(text(r)) as unknown);
    // Defaults from requestedSchema are applied (SEP-1034): count = 7.
    expect(alpha).toEqual({ action: 'accept', content: { answer: 'for alpha', count: 7 } });
    expect(beta).toEqual({ action: 'accept', content: { answer: 'for beta', count: 7 } });
    expect(seen.map((r) => r.message).sort()).toEqual(['shared-alpha asks', 'shared-beta asks']);
    expect(session.pendingElicitations()).toEqual([]);
  });

  it("compiles a server's requestedSchema once however often it asks (no heap growth per question)", async () => {
    const runtime = load(echoServer('mcp_servers.q', 'q'));
    const session = runtime.startSession({
      onElicitation: async () => ({ action: 'accept', content: { answer: 'yes' } }),
    });
    await session.ready();
    const ask = async () =>
      JSON.parse(text(await session.callTool({ server: 'q', tool: 'ask' }))) as unknown;
    expect(await ask()).toEqual({ action: 'accept', content: { answer: 'yes', count: 7 } });
    const compiled = schemaValidators.size;
    // Each question's schema is a new object off the wire; AJV alone would keep every one. The
    // spy calls through: it shows every reply is checked by the cache, which does not grow.
    const lookups = vi.spyOn(schemaValidators, 'getValidator');
    for (let i = 0; i < 60; i++) await ask();
    expect(lookups).toHaveBeenCalledTimes(60);
    lookups.mockRestore();
    expect(schemaValidators.size).toBe(compiled);
    expect(await ask()).toEqual({ action: 'accept', content: { answer: 'yes', count: 7 } });
  });

  it('never forwards a reply that does not match requestedSchema', async () => {
    const runtime = load(echoServer('mcp_servers.q', 'q'));
    const session = runtime.startSession({
      onElicitation: async () => ({ action: 'accept', content: { count: 'not-a-number' } }),
    });
    await session.ready();
    const result = await session.callTool({ server: 'q', tool: 'ask' }).catch((e: unknown) => e);
    // The server's elicitInput rejected with our error, so its tool call failed (as isError).
    const message = result instanceof Error ? result.message : text(result);
    expect(message).toMatch(/elicitation reply does not match the requested schema/);
  });
});
