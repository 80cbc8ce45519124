/**
 * `mcprt serve` replicas behind HAProxy (docs/deploy.md): two replicas on fixed ports with the
 * same config (its `[serve] replicas` lists them) and homes of their own, HAProxy started with
 * the shipped deploy/haproxy.cfg. 2026-07-28 clients: consecutive calls land on both replicas
 * (each its own server process and history) and all succeed; an input-required retry that lands
 * on the other replica is passed to the one holding the operation and completes; killing one
 * replica fails only its in-flight calls, and the next calls go through the other; restarted, it
 * rejoins. 2025-11-25 clients keep their session on one replica through the shipped stickiness
 * rule, and lose it (404) only when that replica dies. Bad input: a requestState naming an
 * unknown replica, a forwarded request naming yet another replica, a replica that cannot be
 * reached, a replica whose own origin is not listed.
 */

import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, echoServer, FIXTURES, isAlive, NODE, q, text, waitFor } from '../helpers/fixtures.js';
import { recoveredHistory } from '../helpers/history.js';
import { TOKEN } from './helpers.js';
import type { Balancer, Replica } from './replicaHelpers.js';
import {
  freePorts,
  historyRows,
  parentPid,
  recordedClient,
  sentinel,
  startHaproxy,
  startReplica,
  tokenFile,
} from './replicaHelpers.js';

const ASKER = join(FIXTURES, 'asker-server.mjs');
const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';

function config(origins: readonly string[]): string {
  return (
    `[serve]\nreplicas = ${arr(origins)}\n\n` +
    echoServer('mcp_servers.echo', 'echo') +
    `[mcp_servers.asker]\ncommand = ${q(NODE)}\nargs = ${arr([ASKER, '--era', 'modern'])}\n`
  );
}

const pidOf = (result: unknown) => (JSON.parse(text(result)) as { pid: number }).pid;

describe('mcprt serve replicas behind HAProxy', () => {
  let ports: number[];
  let replicas: Replica[];
  let balancer: Balancer;
  let token: string;
  /** Slot 2 of `[serve] replicas`: a sentinel that records what reaches it; slot 3: nothing. */
  let spy: Awaited<ReturnType<typeof sentinel>>;

  beforeAll(async () => {
    ports = await freePorts(4);
    const origins = ports.map((p) => `http://127.0.0.1:${p}`);
    token = tokenFile();
    replicas = await Promise.all(
      [0, 1].map((i) => startReplica(config(origins), ports[i]!, token)),
    );
    spy = await sentinel(ports[2]!, { jsonrpc: '2.0', id: 'held', result: { from: 'sentinel' } });
    balancer = await startHaproxy(ports.slice(0, 2));
  }, 30_000);
  afterAll(async () => {
    await balancer?.stop();
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    await spy?.close();
  });

  it('spreads a 2026-07-28 client’s consecutive calls over both replicas; every call succeeds', async () => {
    const c = await recordedClient(balancer.url, 'auto', 'spread');
    try {
      expect(c.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const pids: number[] = [];
      for (let i = 0; i < 6; i++) {
        pids.push(pidOf(await c.client.callTool({ name: 'echo__whoami', arguments: {} })));
      }
      // Each replica runs its own echo server: two processes answered, in turn.
      expect(new Set(pids).size).toBe(2);
      for (let i = 1; i < pids.length; i++) expect(pids[i]).not.toBe(pids[i - 1]);
      expect(c.exchanges.every((e) => e.status === 200)).toBe(true);
    } finally {
      await c.close();
    }
    // Each replica keeps its own history: both homes recorded some of the calls.
    const whoami = (r: Replica) => historyRows(r.home).filter((c) => c.tool === 'whoami').length;
    await waitFor(() => whoami(replicas[0]!) + whoami(replicas[1]!) === 6, 10_000, 'history');
    expect(replicas.map(whoami)).toEqual([3, 3]);
  });

  it('completes an input-required round whose retry lands on the other replica (through HAProxy)', async () => {
    const c = await recordedClient(balancer.url, 'auto', 'lb');
    try {
      const result = await c.client.callTool({ name: 'asker__ask', arguments: { who: 'lb' } });
      expect(text(result)).toBe('asker asked lb, got {"answer":"answer: lb"}');
      expect(c.questions).toEqual(['[asker] asker asks lb']);
      // Round robin sent the retry to the replica that did not ask; it passed the retry on.
      const retry = c.exchanges.find((e) => e.rpc === 'tools/call' && e.retry);
      expect(retry?.answeredBy).toMatch(/^r[01]$/);
    } finally {
      await c.close();
    }
  });

  it('passes a retry sent straight to the other replica to the one holding the operation', async () => {
    // First round to replica 0, the retry (it carries requestState) to replica 1.
    const to1 = (body: string) => (body.includes('"requestState"') ? replicas[1]!.url : undefined);
    const c = await recordedClient(replicas[0]!.url, 'auto', 'direct', to1);
    try {
      const result = await c.client.callTool({ name: 'asker__ask', arguments: { who: 'direct' } });
      expect(text(result)).toBe('asker asked direct, got {"answer":"answer: direct"}');
      const calls = c.exchanges.filter((e) => e.rpc === 'tools/call');
      expect(calls.map((e) => [e.retry, e.answeredBy])).toEqual([
        [false, null],
        [true, 'r0'],
      ]);
    } finally {
      await c.close();
    }
  });

  it('answers a requestState naming an unknown replica with a clear error, forwarding nothing', async () => {
    const answer = await retryTo(replicas[0]!.url, 'r7.AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(answer.error?.message).toMatch(
      /requestState names replica r7, which is not among the 4 replicas .*nothing was forwarded/,
    );
    expect(spy.seen).toEqual([]);
  });

  it('never forwards a forwarded request again', async () => {
    const answer = await retryTo(replicas[1]!.url, 'r2.AAAAAAAAAAAAAAAAAAAAAAAA', {
      'mcprt-replica-forwarded': 'r0',
    });
    expect(answer.error?.message).toMatch(
      /names replica r2, but replica r0 already forwarded this request to r1, and a forwarded request is not forwarded again/,
    );
    expect(spy.seen).toEqual([]);
  });

  it('passes the request as it came, with the marker, only to the listed origin, and relays the answer', async () => {
    const before = spy.seen.length;
    const answer = await retryTo(replicas[0]!.url, 'r2.BBBBBBBBBBBBBBBBBBBBBBBB');
    expect(answer.result).toEqual({ from: 'sentinel' });
    const got = spy.seen.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.method).toBe('POST');
    expect(got[0]!.url).toBe('/mcp');
    expect(got[0]!.headers['mcprt-replica-forwarded']).toBe('r0');
    expect(got[0]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(got[0]!.headers['mcp-protocol-version']).toBe('2026-07-28');
    expect(JSON.parse(got[0]!.body).params.requestState).toBe('r2.BBBBBBBBBBBBBBBBBBBBBBBB');
  });

  it('names the replica that cannot be reached, and why', async () => {
    const answer = await retryTo(replicas[1]!.url, 'r3.CCCCCCCCCCCCCCCCCCCCCCCC');
    expect(answer.error?.message).toMatch(
      /held by replica r3, which could not be reached \(ECONNREFUSED\); if that replica stopped, its operation is gone: make the call again$/,
    );
    expect(answer.error?.message).not.toContain('CCCCCCCC');
    expect(answer.error?.message).not.toContain(`${ports[3]}`);
    expect(replicas[1]!.stderr()).toContain(
      `could not pass a retry to replica r3 (http://127.0.0.1:${ports[3]}): connect ECONNREFUSED`,
    );
  });

  it('keeps a 2025-11-25 session on one replica (stickiness): calls and an elicitation work', async () => {
    const c = await recordedClient(balancer.url, 'legacy', 'old');
    try {
      expect(c.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const pids: number[] = [];
      for (let i = 0; i < 4; i++) {
        pids.push(pidOf(await c.client.callTool({ name: 'echo__whoami', arguments: {} })));
      }
      expect(new Set(pids).size).toBe(1);
      const asked = await c.client.callTool({ name: 'asker__ask', arguments: { who: 'old' } });
      expect(text(asked)).toBe('asker asked old, got {"answer":"answer: old"}');
      expect(c.questions).toEqual(['[asker] asker asks old']);
      expect(c.exchanges.every((e) => e.status < 300)).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('fails only the in-flight calls of a killed replica; the next calls go through the other', async () => {
    const c = await recordedClient(balancer.url, 'auto', 'survivor');
    try {
      // Calls first, so the slow ones below reuse kept-alive client connections (a request that
      // is not the first on its connection is the case HAProxy would answer by closing it).
      for (let i = 0; i < 2; i++) await c.client.callTool({ name: 'echo__whoami', arguments: {} });
      // Four slow calls: round robin puts two on each replica.
      const slow = [0, 1, 2, 3].map((i) =>
        c.client
          .callTool({ name: 'echo__sleep', arguments: { ms: 3000 + i } })
          .then((r) => ({ ok: true as const, text: text(r) }))
          .catch((error: unknown) => ({ ok: false as const, error: errorText(error) })),
      );
      // All four are running (each replica's history shows its calls in progress).
      const running = (r: Replica) =>
        historyRows(r.home).filter((c) => c.tool === 'sleep' && c.status === 'inProgress').length;
      await waitFor(() => running(replicas[0]!) + running(replicas[1]!) === 4, 10_000, 'calls');
      const victim = replicas[0]!;
      victim.child.kill('SIGKILL');
      await new Promise((r) => victim.child.once('exit', r));
      const outcomes = await Promise.all(slow);
      const failed = outcomes.filter((o) => !o.ok);
      // Round robin put two on each replica.
      expect(failed).toHaveLength(2);
      // The shipped 502 line (the frontend's httpclose: every request is the first on its
      // connection, so HAProxy never just closes a kept-alive one instead; deploy.md).
      for (const o of failed) {
        expect(o.error).toMatch(
          /the mcprt replica serving this request stopped before it answered \(load balancer: 502\)/,
        );
      }
      // The failed calls are exactly those the killed replica had started (its journal, read as
      // the next process would); the others are exactly those the survivor completed.
      const ms = (flags: boolean) =>
        outcomes.flatMap((o, i) => (o.ok === flags ? [3000 + i] : [])).sort();
      const started = recoveredHistory<{ tool: string; arguments: string }>(
        victim.home,
        'tool, arguments',
      ).filter((r) => r.tool === 'sleep');
      expect(started.map((r) => (JSON.parse(r.arguments) as { ms: number }).ms).sort()).toEqual(
        ms(false),
      );
      const completed = historyRows(replicas[1]!.home).filter(
        (r) => r.tool === 'sleep' && r.status === 'completed',
      );
      expect(completed.map((r) => (r.arguments as { ms: number }).ms).sort()).toEqual(ms(true));
      expect(outcomes.filter((o) => o.ok).map((o) => o.text)).toEqual(
        ms(true).map((n) => `slept ${n}`),
      );
      // The killed replica's next calls are redispatched: every one succeeds.
      const survivorPid = pidOf(await c.client.callTool({ name: 'echo__whoami', arguments: {} }));
      for (let i = 0; i < 4; i++) {
        expect(pidOf(await c.client.callTool({ name: 'echo__whoami', arguments: {} }))).toBe(
          survivorPid,
        );
      }
      expect(isAlive(survivorPid)).toBe(true);
    } finally {
      await c.close();
    }
  }, 30_000);

  it('takes a restarted replica back; a 2025 session of a killed replica is gone (404), a new one works', async () => {
    const dead = replicas[0]!;
    expect(dead.child.exitCode !== null || dead.child.signalCode !== null).toBe(true);
    replicas[0] = await startReplica({ home: dead.home }, ports[0]!, token);
    // Health checks bring it back: the 2026-07-28 calls reach both replicas again.
    const c = await recordedClient(balancer.url, 'auto', 'rejoin');
    try {
      const pids = new Set<number>();
      const deadline = Date.now() + 15_000;
      while (pids.size < 2 && Date.now() < deadline) {
        pids.add(pidOf(await c.client.callTool({ name: 'echo__whoami', arguments: {} })));
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(pids.size).toBe(2);
    } finally {
      await c.close();
    }
    const old = await recordedClient(balancer.url, 'legacy', 'orphan');
    try {
      const pid = pidOf(await old.client.callTool({ name: 'echo__whoami', arguments: {} }));
      const holder = replicas.find((r) => r.child.pid === parentPid(pid))!;
      expect(holder).toBeDefined();
      holder.child.kill('SIGKILL');
      await new Promise((r) => holder.child.once('exit', r));
      await expect(old.client.callTool({ name: 'echo__whoami', arguments: {} })).rejects.toThrow(
        /Session not found/,
      );
    } finally {
      await old.close().catch(() => undefined);
    }
    const fresh = await recordedClient(balancer.url, 'legacy', 'fresh');
    try {
      const answer = await fresh.client.callTool({
        name: 'echo__echo',
        arguments: { message: 'hi' },
      });
      expect(text(answer)).toBe('echo: hi');
    } finally {
      await fresh.close();
    }
  }, 40_000);
});

describe('a replica whose own origin is not in [serve] replicas', () => {
  it('does not start, and says which origin is missing', async () => {
    const [mine, other] = await freePorts(2);
    const replica = startReplica(config([`http://127.0.0.1:${other}`]), mine!, tokenFile());
    await expect(replica).rejects.toThrow(
      new RegExp(
        `replica exited with 1: mcprt: \\[serve\\] replicas lists http://127.0.0.1:${other}, but this replica listens on http://127.0.0.1:${mine}, which is not among them`,
      ),
    );
  });
});

/** An error with its cause (undici's `fetch failed` says why only there). */
function errorText(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${String(error)} (${cause.message})` : String(error);
}

interface RpcAnswer {
  readonly result?: unknown;
  readonly error?: { code: number; message: string };
}

/** A hand-made 2026-07-28 `tools/call` retry carrying `requestState`, POSTed to `url`. */
async function retryTo(
  url: string,
  requestState: string,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'held',
      method: 'tools/call',
      params: {
        name: 'asker__ask',
        arguments: { who: 'x' },
        requestState,
        _meta: { [ENVELOPE_VERSION]: '2026-07-28' },
      },
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RpcAnswer;
}
