/**
 * `/metrics` of `mcprt serve --listen http://…`, scraped after real calls through the gateway (a
 * client of either era) and parsed as Prometheus text: calls by server, environment and outcome (ok, tool error, error,
 * cancelled), a call in flight while scraping, a latency histogram consistent with the calls,
 * an input-required round, a crashed server's restart, registrations by state adding up to the
 * configured ones, listener bytes — and no argument value or token in any of it.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  echoServer,
  FAULT_SERVER,
  makeHome,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';
import { parseExposition, samplesOf, sumOf, valueOf } from '../helpers/promText.js';
import type { Exposition } from '../helpers/promText.js';
import type { Era, GatewayClient, HttpGateway } from './helpers.js';
import { httpClient, httpGateway, stdioServer, texts, TOKEN } from './helpers.js';

const ARGUMENT = 'argument-value-that-must-stay-out-of-labels';
const ECHO = { server: 'echo', environment: '' };
const FAULT = { server: 'fault', environment: 'a' };

const home = makeHome(
  echoServer('mcp_servers.echo', 'echo') +
    shExecEnvironment('a', tempDir('mcprt-metrics-cwd-')) +
    stdioServer('environments.a.mcp_servers.fault', FAULT_SERVER) +
    'restart_backoff_sec = 0.1\n',
);

describe.each<Era>(['auto', 'legacy'])('/metrics after calls, %s era', (era) => {
  let gateway: HttpGateway;
  let client: GatewayClient;
  let raw = '';
  const scrape = async (): Promise<Exposition> => {
    const response = await fetch(new URL('/metrics', gateway.url), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    raw = await response.text();
    return parseExposition(raw);
  };
  /** Scrape until `done` holds (the gateway settles calls and restarts asynchronously). */
  const scrapeUntil = async (done: (e: Exposition) => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const exposition = await scrape();
      if (done(exposition)) return exposition;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${raw}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const call = (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
    client.client.callTool({ name, arguments: args }, signal ? { signal } : {});

  beforeAll(async () => {
    gateway = await httpGateway(home);
    client = await httpClient(gateway.url, era);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
  });

  it('counts every call by outcome, with consistent latencies', async () => {
    const before = await scrape();
    expect(before.types.get('mcprt_tool_calls_total')).toBe('counter');
    expect(before.types.get('mcprt_tool_call_duration_seconds')).toBe('histogram');
    expect(valueOf(before, 'mcprt_tool_calls_total', { ...ECHO, outcome: 'ok' })).toBeUndefined();

    expect(texts(await call('echo__echo', { message: ARGUMENT }))).toEqual([`echo: ${ARGUMENT}`]);
    expect(texts(await call('echo__echo', { message: 'again' }))).toEqual(['echo: again']);
    expect((await call('echo__fail')).isError).toBe(true);
    // The client answers the elicitation: one input-required round, then the result.
    expect(texts(await call('echo__ask'))[0]).toContain('accept');
    // The server crashes: the call fails (a tool error the model sees, counted as an error).
    expect((await call('a__fault__act', { nonce: 1, fault: 'crash' })).isError).toBe(true);

    // A slow call is in flight while scraping.
    const slow = call('echo__sleep', { ms: 1_500 });
    const during = await scrapeUntil(
      (e) => valueOf(e, 'mcprt_tool_calls_in_flight', ECHO) === 1,
      'the slow call in flight',
    );
    expect(valueOf(during, 'mcprt_tool_calls_total', { ...ECHO, outcome: 'ok' })).toBe(3);
    expect(texts(await slow)).toEqual(['slept 1500']);

    // A cancelled call.
    const controller = new AbortController();
    const cancelled = call('echo__sleep', { ms: 20_000 }, controller.signal);
    setTimeout(() => controller.abort(new Error('user cancelled')), 300);
    await expect(cancelled).rejects.toThrow();

    const after = await scrapeUntil(
      (e) => valueOf(e, 'mcprt_tool_calls_total', { ...ECHO, outcome: 'cancelled' }) === 1,
      'the cancelled call',
    );
    const calls = (labels: Record<string, string>, outcome: string) =>
      valueOf(after, 'mcprt_tool_calls_total', { ...labels, outcome });
    expect(calls(ECHO, 'ok')).toBe(4);
    expect(calls(ECHO, 'tool_error')).toBe(1);
    expect(calls(ECHO, 'error')).toBeUndefined();
    expect(calls(FAULT, 'error')).toBe(1);
    expect(calls(FAULT, 'ok')).toBeUndefined();
    expect(valueOf(after, 'mcprt_tool_calls_in_flight', ECHO)).toBe(0);
    expect(valueOf(after, 'mcprt_input_required_rounds_total', ECHO)).toBe(1);

    for (const [labels, total] of [
      [ECHO, 6],
      [FAULT, 1],
    ] as const) {
      const histogram = 'mcprt_tool_call_duration_seconds';
      const count = valueOf(after, `${histogram}_count`, labels);
      expect(count).toBe(total);
      expect(count).toBe(sumOf(after, 'mcprt_tool_calls_total', labels));
      const buckets = samplesOf(after, `${histogram}_bucket`, labels);
      expect(buckets.length).toBeGreaterThan(5);
      const bounds = buckets.map((b) => Number(b.labels['le']!.replace('+Inf', 'Infinity')));
      expect(bounds).toEqual([...bounds].sort((x, y) => x - y));
      const values = buckets.map((b) => b.value);
      expect(values).toEqual([...values].sort((x, y) => x - y));
      expect(valueOf(after, `${histogram}_bucket`, { ...labels, le: '+Inf' })).toBe(count);
    }
    // The 1.5 s sleep (and the cancelled one, 0.3 s) are in the echo server's sum and buckets.
    expect(valueOf(after, 'mcprt_tool_call_duration_seconds_sum', ECHO)).toBeGreaterThan(1.7);
    expect(valueOf(after, 'mcprt_tool_call_duration_seconds_bucket', { ...ECHO, le: '1' })).toBe(5);

    expect(raw).not.toContain(ARGUMENT);
    expect(raw).not.toContain(TOKEN);
  });

  it("counts the crashed server's restart and registrations by state", async () => {
    const exposition = await scrapeUntil(
      (e) =>
        valueOf(e, 'mcprt_server_restarts_total', FAULT) === 1 &&
        valueOf(e, 'mcprt_registrations', { state: 'ready' }) === 2,
      'the restart',
    );
    expect(valueOf(exposition, 'mcprt_server_restarts_total', ECHO)).toBe(0);
    expect(sumOf(exposition, 'mcprt_registrations')).toBe(2);
    for (const state of ['starting', 'failed', 'cancelled', 'disabled']) {
      expect(valueOf(exposition, 'mcprt_registrations', { state }), state).toBe(0);
    }
    // The restarted server answers again.
    expect(texts(await call('a__fault__act', { nonce: 2 }))).toEqual([
      '{"nonce":2,"server":"fault"}',
    ]);
  });

  it('counts the bytes on the listener', async () => {
    const first = await scrape();
    const received = valueOf(first, 'mcprt_http_received_bytes_total')!;
    const sent = valueOf(first, 'mcprt_http_sent_bytes_total')!;
    expect(received).toBeGreaterThan(1_000);
    expect(sent).toBeGreaterThan(1_000);
    await call('echo__echo', { message: 'x'.repeat(10_000) });
    const second = await scrape();
    expect(valueOf(second, 'mcprt_http_received_bytes_total')).toBeGreaterThan(received + 10_000);
    expect(valueOf(second, 'mcprt_http_sent_bytes_total')).toBeGreaterThan(sent + 10_000);
  });
});
