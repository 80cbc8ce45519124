/**
 * `mcprt serve` with tracing off or misconfigured, and its flush on SIGTERM
 * (docs/observability.md, Traces): with no OTEL endpoint nothing is exported and the server
 * receives the client's `_meta` exactly as sent; a bad OTEL value is one stderr line and the
 * gateway serves untraced; spans still queued when the gateway is stopped are exported.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { OtlpReceiver } from '../helpers/otlpReceiver.js';
import { startOtlpReceiver } from '../helpers/otlpReceiver.js';
import {
  ARG,
  cleanEnv,
  CLIENT,
  hex,
  httpClient,
  httpGateway,
  otelEnv,
  received,
  SERVER,
  toolName,
  traceHome,
  traceparent,
} from './tracingHelpers.js';

const home = traceHome();

describe('gateway with tracing off or misconfigured', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('with OTEL unset exports nothing and forwards the client’s _meta unchanged', async () => {
    const gateway = await httpGateway(cleanEnv({}), home);
    const client = await httpClient(gateway.url, 'legacy');
    try {
      const name = await toolName(client, 'x', 'probe');
      const given = { traceparent: traceparent(hex(16), hex(8)), tracestate: 'a=b', other: 1 };
      const meta = received(
        await client.callTool({ name, arguments: { value: ARG }, _meta: given }),
      );
      expect(meta).toMatchObject(given);
    } finally {
      await client.close();
      await gateway.stop();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.bodies).toEqual([]);
  });

  it('a bad OTEL value is one stderr line, and the gateway serves untraced', async () => {
    const gateway = await httpGateway(
      otelEnv(receiver, { OTEL_TRACES_SAMPLER: 'sometimes' }),
      home,
    );
    const client = await httpClient(gateway.url, 'legacy');
    try {
      const name = await toolName(client, null, 'probe');
      const given = { traceparent: traceparent(hex(16), hex(8)) };
      const meta = received(
        await client.callTool({ name, arguments: { value: ARG }, _meta: given }),
      );
      expect(meta).toMatchObject(given);
      const lines = gateway
        .stderr()
        .split('\n')
        .filter((l) => l.includes('tracing is off'));
      expect(lines).toEqual([
        'mcprt: tracing is off: OTEL_TRACES_SAMPLER="sometimes" is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
      ]);
    } finally {
      await client.close();
      await gateway.stop();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.bodies).toEqual([]);
  });

  it('SIGTERM flushes the spans still queued', async () => {
    // A batch delay far beyond the test: only the shutdown's flush can export the spans.
    const gateway = await httpGateway(
      otelEnv(receiver, { OTEL_BSP_SCHEDULE_DELAY: '600000' }),
      home,
    );
    const client = await httpClient(gateway.url, 'auto');
    const trace = hex(16);
    try {
      const name = await toolName(client, null, 'probe');
      await client.callTool({
        name,
        arguments: { value: ARG },
        _meta: { traceparent: traceparent(trace, hex(8)) },
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.spans().filter((s) => s.traceId === trace)).toEqual([]);
    } finally {
      await client.close();
      await gateway.stop();
    }
    const kinds = receiver
      .spans()
      .filter((s) => s.traceId === trace)
      .map((s) => s.kind)
      .sort();
    expect(kinds).toEqual([SERVER, CLIENT]);
  });
});
