import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ServerStatus } from '@mcprt/runtime';
import { register } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { GatewayMetrics } from './metrics.js';
import { HttpTraffic } from './traffic.js';

const scope = { name: 'echo', environmentId: 'prod' };
const labels = { server: 'echo', environment: 'prod' };

function metricsOf(statuses: readonly ServerStatus[] = []): GatewayMetrics {
  return new GatewayMetrics({
    statuses: () => statuses,
    traffic: () => ({ received: 7, sent: 9 }),
  });
}

async function values(metrics: GatewayMetrics, name: string) {
  const all = await metrics.registry.getMetricsAsJSON();
  return all.find((m) => m.name === name)?.values ?? [];
}

async function calls(metrics: GatewayMetrics) {
  return Object.fromEntries(
    (await values(metrics, 'mcprt_tool_calls_total')).map((v) => [v.labels['outcome'], v.value]),
  );
}

describe('GatewayMetrics', () => {
  it('counts each outcome, in flight until the call settles', async () => {
    const metrics = metricsOf();
    let finish!: (value: unknown) => void;
    const running = new Promise((resolve) => (finish = resolve));
    metrics.track(scope, running, { aborted: false });
    expect((await values(metrics, 'mcprt_tool_calls_in_flight'))[0]).toMatchObject({ value: 1 });
    finish({ content: [] });
    await running;
    metrics.track(scope, Promise.resolve({ content: [], isError: true }), { aborted: false });
    metrics.track(scope, Promise.reject(new Error('gone')), { aborted: false });
    metrics.track(scope, Promise.reject(new Error('aborted')), { aborted: true });
    metrics.refused(scope);
    await new Promise((r) => setImmediate(r));
    expect(await calls(metrics)).toEqual({
      ok: 1,
      tool_error: 1,
      error: 1,
      cancelled: 1,
      refused: 1,
    });
    expect((await values(metrics, 'mcprt_tool_calls_in_flight'))[0]).toMatchObject({
      labels,
      value: 0,
    });
    const count = (await values(metrics, 'mcprt_tool_call_duration_seconds')).find(
      (v) => (v as { metricName?: string }).metricName === 'mcprt_tool_call_duration_seconds_count',
    );
    // Refusals never ran: only the four calls have a duration.
    expect(count?.value).toBe(4);
  });

  it('observes durations kept between scrapes exactly once, however many calls pass', async () => {
    const metrics = metricsOf();
    const durations = async () => {
      const all = await values(metrics, 'mcprt_tool_call_duration_seconds');
      const named = (suffix: string) =>
        all.find((v) => (v as { metricName?: string }).metricName === `${suffix}`)?.value;
      return named('mcprt_tool_call_duration_seconds_count');
    };
    // More calls than are kept before the histogram is given them without a scrape.
    for (let i = 0; i < 700; i++) metrics.track(scope, Promise.resolve({}), { aborted: false });
    await new Promise((r) => setImmediate(r));
    expect(await durations()).toBe(700);
    expect(await durations()).toBe(700);
    metrics.track(scope, Promise.resolve({}), { aborted: false });
    await new Promise((r) => setImmediate(r));
    expect(await durations()).toBe(701);
    expect(await calls(metrics)).toEqual({ ok: 701 });
  });

  it('keeps its own registry: two gateways in one process never collide', async () => {
    const one = metricsOf();
    const two = metricsOf();
    one.track(scope, Promise.resolve({}), { aborted: false });
    await new Promise((r) => setImmediate(r));
    expect(await calls(one)).toEqual({ ok: 1 });
    expect(await calls(two)).toEqual({});
    expect(register.getSingleMetric('mcprt_tool_calls_total')).toBeUndefined();
  });

  it('reads registrations, restarts and bytes when scraped', async () => {
    const statuses = [
      { scope, startupStatus: 'ready', restartCount: 2 },
      { scope: { name: 'x', environmentId: null }, startupStatus: null, restartCount: 0 },
    ] as unknown as ServerStatus[];
    const text = await metricsOf(statuses).scrape();
    expect(text).toContain('mcprt_registrations{state="ready"} 1');
    expect(text).toContain('mcprt_registrations{state="disabled"} 1');
    expect(text).toContain('mcprt_registrations{state="failed"} 0');
    expect(text).toContain('mcprt_server_restarts_total{server="echo",environment="prod"} 2');
    expect(text).toContain('mcprt_server_restarts_total{server="x",environment=""} 0');
    expect(text).toContain('mcprt_http_received_bytes_total 7');
    expect(text).toContain('mcprt_http_sent_bytes_total 9');
  });

  it('counts input-required rounds by registration', async () => {
    const metrics = metricsOf();
    metrics.inputRound(scope);
    metrics.inputRound(scope);
    expect(await values(metrics, 'mcprt_input_required_rounds_total')).toEqual([
      { labels, value: 2 },
    ]);
  });
});

describe('HttpTraffic', () => {
  it('counts the bytes of open and closed connections', async () => {
    const traffic = new HttpTraffic();
    const server = createServer((_req, res) => res.end('x'.repeat(5_000)));
    traffic.watch(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: 'y'.repeat(3_000),
    });
    expect((await response.text()).length).toBe(5_000);
    const open = traffic.totals();
    expect(open.received).toBeGreaterThan(3_000);
    expect(open.sent).toBeGreaterThan(5_000);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise((r) => setImmediate(r));
    expect(traffic.totals()).toEqual(open);
  });
});
