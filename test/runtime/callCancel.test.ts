// ADR 0023 against real servers: a call cancelled with a `CallCancel` (what the app-server passes
// instead of an AbortSignal) on the stdio fast path and on the SDK's HTTP path, and the fast
// path's one timer per connection timing out calls with different timeouts each at its own time.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';
import { CallCancel, RequestFailedError } from '@mcprt/runtime';

import { arr, FIXTURES, HTTP_SERVER, NODE, q, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();
const FASTPATH_SERVER = join(FIXTURES, 'fastpath-server.mjs');
const PREFIX = 'tools/call to MCP server `fp` failed: ';

async function fastSession(): Promise<Session> {
  const runtime = load(
    `[mcp_servers.fp]\ncommand = ${q(NODE)}\nargs = ${arr([FASTPATH_SERVER])}\n`,
  );
  const session = runtime.startSession();
  await session.ready();
  return session;
}

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

const cancelledOnServer = async (session: Session) =>
  JSON.parse(text(await session.callTool({ server: 'fp', tool: 'cancelled' }))) as {
    requestId: unknown;
    reason: string;
  }[];

describe('CallCancel and the fast path’s deadlines', () => {
  it('cancels a fast-path call: the server gets notifications/cancelled, the call fails with the reason', async () => {
    const session = await fastSession();
    const cancel = new CallCancel();
    const events: string[] = [];
    session.on('toolCallCompleted', (e) => events.push(e.status));
    const pending = session.callTool({
      server: 'fp',
      tool: 'slow',
      arguments: { ms: 20_000 },
      signal: cancel,
    });
    setTimeout(() => cancel.abort(new Error('user pressed stop')), 200);
    const error = await failure(pending);
    expect(error.message).toBe(`${PREFIX}Error: user pressed stop`);
    expect(events).toEqual(['cancelled']);
    expect(await cancelledOnServer(session)).toEqual([
      { requestId: expect.stringMatching(/^mcprt-\d+$/), reason: 'Error: user pressed stop' },
    ]);
    // Cancelled before it is sent: fails at once, nothing reaches the server.
    const early = new CallCancel();
    early.abort(new Error('never mind'));
    const refused = await failure(session.callTool({ server: 'fp', tool: 'echo', signal: early }));
    expect(refused.message).toBe(`${PREFIX}Error: never mind`);
    expect(await cancelledOnServer(session)).toHaveLength(1);
  });

  it('calls made together reach the server in order, and a call cancelled as it is made before its cancellation', async () => {
    const session = await fastSession();
    const before = (
      JSON.parse(text(await session.callTool({ server: 'fp', tool: 'arrivals' }))) as string[]
    ).length;
    // Made in one tick: their requests may share one write to the server (ADR 0023).
    const echoes = ['a', 'b', 'c'].map((message) =>
      session.callTool({ server: 'fp', tool: 'echo', arguments: { message } }),
    );
    const cancel = new CallCancel();
    const slow = session.callTool({
      server: 'fp',
      tool: 'slow',
      arguments: { ms: 20_000 },
      signal: cancel,
    });
    const slowFailed = failure(slow);
    cancel.abort(new Error('changed my mind'));
    const answers = (await Promise.all(echoes)).map(
      (r) => (JSON.parse(text(r)) as { params: { arguments: { message: string } } }).params,
    );
    expect(answers.map((p) => p.arguments.message)).toEqual(['a', 'b', 'c']);
    expect((await slowFailed).message).toBe(`${PREFIX}Error: changed my mind`);
    const arrivals = (
      JSON.parse(text(await session.callTool({ server: 'fp', tool: 'arrivals' }))) as string[]
    ).slice(before + 1, before + 6);
    // Four requests and the one cancellation, which names a request the server already had.
    expect(arrivals.filter((a) => a.startsWith('tools/call mcprt-'))).toHaveLength(4);
    const cancellations = arrivals.filter((a) => a.startsWith('notifications/cancelled '));
    expect(cancellations).toHaveLength(1);
    const slowId = cancellations[0]!.split(' ')[1]!;
    expect(arrivals.indexOf(`tools/call ${slowId}`)).toBeGreaterThanOrEqual(0);
    expect(arrivals.indexOf(`tools/call ${slowId}`)).toBeLessThan(
      arrivals.indexOf(`notifications/cancelled ${slowId}`),
    );
    expect(await cancelledOnServer(session)).toEqual([
      { requestId: slowId, reason: 'Error: changed my mind' },
    ]);
  });

  it('times out each call at its own timeout while calls with later deadlines are in flight', async () => {
    const session = await fastSession();
    const slow = (ms: number, timeoutMs: number) =>
      session.callTool({ server: 'fp', tool: 'slow', arguments: { ms }, timeoutMs });
    const t0 = Date.now();
    const long = slow(1_500, 20_000);
    const timedOut = [400, 800].map((timeoutMs) =>
      failure(slow(10_000, timeoutMs)).then((error) => ({ error, at: Date.now() - t0 })),
    );
    const [first, second] = await Promise.all(timedOut);
    expect(first!.error.message).toBe(`${PREFIX}Request timed out`);
    expect(second!.error.message).toBe(`${PREFIX}Request timed out`);
    expect(first!.at).toBeGreaterThanOrEqual(390);
    expect(first!.at).toBeLessThan(790);
    expect(second!.at).toBeGreaterThanOrEqual(790);
    expect(text(await long)).toBe('slow done');
    expect((await cancelledOnServer(session)).map((c) => c.reason)).toEqual([
      expect.stringMatching(/Request timed out/),
      expect.stringMatching(/Request timed out/),
    ]);
    // Later calls get a fresh timer.
    const later = await failure(slow(10_000, 300));
    expect(later.message).toBe(`${PREFIX}Request timed out`);
  });
});

describe('CallCancel on the SDK’s path (streamable HTTP)', () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    server = spawn(NODE, [HTTP_SERVER, '--name', 'web'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) =>
      server.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    server.kill();
  });

  it('is turned into an AbortSignal: a cancelled call fails with the reason, others are answered', async () => {
    const runtime = load(`[mcp_servers.web]\nurl = "${url}"\n`);
    const session = runtime.startSession();
    await session.ready();
    const cancel = new CallCancel();
    const answered = await session.callTool({
      server: 'web',
      tool: 'echo',
      arguments: { message: 'hi' },
      signal: cancel,
    });
    expect(text(answered)).toBe('web: hi');
    const t0 = Date.now();
    const sleeping = session.callTool({
      server: 'web',
      tool: 'sleep',
      arguments: { ms: 20_000 },
      signal: cancel,
    });
    setTimeout(() => cancel.abort(new Error('user pressed stop')), 300);
    const stopped = await failure(sleeping);
    expect(stopped.message).toContain('user pressed stop');
    expect(Date.now() - t0).toBeLessThan(10_000);
    const error = await failure(
      session.callTool({
        server: 'web',
        tool: 'echo',
        arguments: { message: 'x' },
        signal: cancel,
      }),
    );
    expect(error.message).toContain('user pressed stop');
  });
});
