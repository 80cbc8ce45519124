// The tool-call fast path (ADR 0021) at its own edges, against a real dependency-free server
// process (test/fixtures/servers/fastpath-server.mjs) in an exec environment, so every error
// names server@env: calls interleaved with the SDK's own traffic, responses for ids nobody
// asked, malformed answers, progress on our token, cancellation and timeouts that reach the
// server, a server exiting mid-call, output-schema checks, the server's own JSON-RPC errors.
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';
import { RequestFailedError } from '@mcprt/runtime';

import { arr, FIXTURES, NODE, q, shExecEnvironment, tempDir, text } from '../helpers/fixtures.js';
import { modernServer } from '../helpers/revisions.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();
const FASTPATH_SERVER = join(FIXTURES, 'fastpath-server.mjs');

async function fastSession(extra = '', serverArgs: string[] = []): Promise<Session> {
  const runtime = load(
    shExecEnvironment('box', tempDir()) +
      `[environments.box.mcp_servers.fp]\ncommand = ${q(NODE)}\n` +
      `args = ${arr([FASTPATH_SERVER, ...serverArgs])}\n${extra}\n`,
  );
  const session = runtime.startSession();
  await session.ready();
  expect(session.status('fp', 'box').startupStatus).toBe('ready');
  return session;
}

const call = (session: Session, tool: string, args: Record<string, unknown> = {}) =>
  session.callTool({ server: 'fp', environmentId: 'box', tool, arguments: args });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(RequestFailedError);
      return error as RequestFailedError;
    },
  );

const PREFIX = 'tools/call to MCP server `fp@box` failed: ';

describe('the tool-call fast path', () => {
  it('sends calls under its own ids while the SDK lists on the same connection', async () => {
    const session = await fastSession('', ['--list-delay', '2']);
    const calls = Array.from({ length: 40 }, (_, i) =>
      call(session, 'echo', { i }).then(
        (r) => JSON.parse(text(r)) as { id: unknown; params: { arguments: { i: number } } },
      ),
    );
    const listings = Array.from({ length: 5 }, () =>
      session.listResources({ server: 'fp', environmentId: 'box' }),
    );
    const [answers, lists] = await Promise.all([Promise.all(calls), Promise.all(listings)]);
    answers.forEach((answer, i) => {
      expect(answer.id).toMatch(/^mcprt-\d+$/);
      expect(answer.params.arguments).toEqual({ i });
    });
    expect(new Set(answers.map((a) => a.id)).size).toBe(40);
    for (const list of lists) {
      expect(list.errors).toEqual([]);
      expect(list.data[0]?.items.map((r) => r.uri)).toEqual(['fp://r0', 'fp://r1', 'fp://r2']);
    }
  });

  it('ignores responses for ids nobody asked and answers the call that was asked', async () => {
    const session = await fastSession();
    expect(text(await call(session, 'stray'))).toBe('stray done');
    // The connection is unharmed: the next call is answered by its own response.
    expect(JSON.parse(text(await call(session, 'echo', { after: 1 }))).params.arguments).toEqual({
      after: 1,
    });
    expect(session.status('fp', 'box').connectionStatus).toBe('connected');
  });

  it('fails a malformed answer with a clear error naming server@env, and keeps serving', async () => {
    const session = await fastSession();
    const cases: [string, RegExp][] = [
      ['content-string', /Invalid result for tools\/call: content: expected an array/],
      ['not-object', /Invalid result for tools\/call: expected an object/],
      ['bad-block', /Invalid result for tools\/call: content\[1\]\.text: expected a string/],
      ['bad-image', /Invalid result for tools\/call: content\[0\]\.data: expected base64 data/],
      [
        'no-result',
        /Invalid result for tools\/call: a response with neither a result nor an error/,
      ],
      ['not-jsonrpc', /Invalid result for tools\/call: not a JSON-RPC 2\.0 response/],
    ];
    for (const [kind, expected] of cases) {
      const error = await failure(call(session, 'garbage', { kind }));
      expect(error.message.startsWith(PREFIX)).toBe(true);
      expect(error.message).toMatch(expected);
    }
    expect(text(await call(session, 'stray'))).toBe('stray done');
  });

  it('passes the server’s JSON-RPC error on with its code, message and data', async () => {
    const session = await fastSession();
    const error = await failure(call(session, 'fail'));
    expect(error.message).toBe(`${PREFIX}custom failure`);
    expect(error.serverError).toEqual({
      code: -32042,
      message: 'custom failure',
      data: { why: 'asked to' },
    });
  });

  it('forwards progress on its own token only, without the token', async () => {
    const session = await fastSession();
    const updates: unknown[] = [];
    const result = await session.callTool({
      server: 'fp',
      environmentId: 'box',
      tool: 'progress',
      arguments: { steps: 3 },
      onProgress: (p) => updates.push(p),
    });
    expect(text(result)).toMatch(/^progress mcprt-\d+$/);
    expect(updates).toEqual(
      [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })),
    );
  });

  it('cancels with an AbortSignal: the server gets notifications/cancelled for our id', async () => {
    const session = await fastSession();
    const controller = new AbortController();
    const pending = session.callTool({
      server: 'fp',
      environmentId: 'box',
      tool: 'slow',
      arguments: { ms: 20_000 },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 200);
    const error = await failure(pending);
    expect(error.message).toBe(`${PREFIX}Error: user pressed stop`);
    const seen = JSON.parse(text(await call(session, 'cancelled'))) as {
      requestId: unknown;
      reason: string;
    }[];
    expect(seen).toEqual([
      { requestId: expect.stringMatching(/^mcprt-\d+$/), reason: 'Error: user pressed stop' },
    ]);
  });

  it('times out at tool_timeout_sec with the SDK’s text and cancels on the server', async () => {
    const session = await fastSession('tool_timeout_sec = 0.5');
    const t0 = Date.now();
    const error = await failure(call(session, 'slow', { ms: 10_000 }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(error.message).toBe(`${PREFIX}Request timed out`);
    const seen = JSON.parse(text(await call(session, 'cancelled'))) as { reason: string }[];
    expect(seen).toHaveLength(1);
    expect(seen[0]?.reason).toMatch(/Request timed out/);
  });

  it('fails a call whose server exits under it with the exit status', async () => {
    const session = await fastSession();
    const slow = failure(call(session, 'slow', { ms: 10_000 }));
    const error = await failure(call(session, 'die'));
    expect(error.message).toBe(
      `${PREFIX}the server stopped during the call (server process exited with code 5)`,
    );
    expect((await slow).message).toBe(error.message);
  });

  it('checks structuredContent against the tool’s outputSchema', async () => {
    const session = await fastSession();
    const ok = await call(session, 'structured', { value: { n: 1 } });
    expect(ok.structuredContent).toEqual({ n: 1 });
    const mismatch = await failure(call(session, 'structured', { value: { n: 'one' } }));
    expect(mismatch.message).toMatch(
      /^tools\/call to MCP server `fp@box` failed: Structured content does not match the tool's output schema: .*n/,
    );
    const missing = await failure(call(session, 'structured'));
    expect(missing.message).toBe(
      `${PREFIX}Tool structured has an output schema but did not return structured content`,
    );
    // An isError result is not checked.
    const isError = await call(session, 'structured', { isError: true });
    expect(isError.isError).toBe(true);
    // A schema that does not compile fails only that tool, before anything is sent.
    const bad = await failure(call(session, 'badschema'));
    expect(bad.message).toMatch(
      /^tools\/call to MCP server `fp@box` failed: Tool 'badschema' has an invalid outputSchema: /,
    );
    expect(text(await call(session, 'stray'))).toBe('stray done');
  });

  it('on 2026-07-28: the first leg is ours, the input-required rounds are the SDK’s', async () => {
    const runtime = load(modernServer('mcp_servers.modern', 'modern'));
    const session = runtime.startSession({
      onElicitation: async () => ({ action: 'accept', content: { note: 'go' } }),
    });
    await session.ready();
    expect(session.status('modern').protocolVersion).toBe('2026-07-28');
    const updates: unknown[] = [];
    const result = await session.callTool({
      server: 'modern',
      tool: 'round_trip',
      arguments: { x: 1 },
      meta: { custom: 'kept' },
      onProgress: (p) => updates.push(p),
    });
    const report = JSON.parse(text(result)) as {
      response: unknown;
      arguments: unknown;
      firstMeta: Record<string, unknown>;
      secondMeta: Record<string, unknown>;
    };
    expect(report.response).toEqual({ action: 'accept', content: { note: 'go' } });
    expect(report.arguments).toEqual({ x: 1 });
    // The fast path's own progress token on the first leg; the SDK's (an integer) on the retry.
    expect(report.firstMeta['progressToken']).toMatch(/^mcprt-\d+$/);
    expect(typeof report.secondMeta['progressToken']).toBe('number');
    expect(report.firstMeta['custom']).toBe('kept');
    expect(report.secondMeta['custom']).toBe('kept');
    // A plain call after it, on the same connection.
    expect(
      text(
        await session.callTool({ server: 'modern', tool: 'echo', arguments: { message: 'hi' } }),
      ),
    ).toBe('modern: hi');
  });
});
