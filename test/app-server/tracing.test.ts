/**
 * Traces of `mcprt app-server` (docs/observability.md, Traces), with the real OpenTelemetry SDK
 * and OTLP/HTTP exporter sending to a receiver this test runs: an `mcpServer/tool/call` whose
 * `_meta` carries a `traceparent` continues that trace in a SERVER span, the upstream request is
 * a CLIENT span below it, and the fixture server receives that CLIENT span as its parent — for a
 * thread-wide registration (2025-11-25 upstream) and one of an exec environment (2026-07-28).
 * Arguments and results are never exported; with OTEL unset the `_meta` reaches the server as
 * the client sent it and nothing is exported.
 */

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  FIXTURES,
  makeHome,
  NODE,
  q,
  arr,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import type { OtlpReceiver, ReceivedSpan } from '../helpers/otlpReceiver.js';
import { startOtlpReceiver } from '../helpers/otlpReceiver.js';
import { RawAppServer } from '../helpers/rpcClient.js';

const TRACE_SERVER = join(FIXTURES, 'trace-server.mjs');
const ARG = 's3cret-arg-value';
const RESULT = 's3cret-result-value';
const SERVER = 2;
const CLIENT = 3;

const home = makeHome(
  `[mcp_servers.tr]\ncommand = ${q(NODE)}\nargs = ${arr([TRACE_SERVER])}\nprotocol_version = "2025-11-25"\n` +
    shExecEnvironment('x', tempDir()) +
    `[environments.x.mcp_servers.tr]\ncommand = ${q(NODE)}\nargs = ${arr([TRACE_SERVER])}\nprotocol_version = "2026-07-28"\n`,
);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('OTEL_')) env[key] = value;
  }
  return { ...env, ...extra };
}

async function startThread(server: RawAppServer): Promise<string> {
  await server.initialize();
  const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
    environments: [{ environmentId: 'x', cwd: tempDir() }],
  });
  for (const env of [null, 'x']) {
    await server.waitFor(
      (m) =>
        m.method === 'mcpServer/startupStatus/updated' &&
        (m.params as Record<string, unknown>)['name'] === 'tr' &&
        (m.params as Record<string, unknown>)['environmentId'] === env &&
        (m.params as Record<string, unknown>)['status'] === 'ready',
      40_000,
    );
  }
  return thread.id;
}

function received(result: unknown): Record<string, unknown> {
  return (JSON.parse(text(result)) as { meta: Record<string, unknown> }).meta;
}

function span(receiver: OtlpReceiver, match: (s: ReceivedSpan) => boolean, what: string) {
  return waitFor(() => receiver.spans().find(match), 15_000, what);
}

describe('app-server traces', () => {
  let receiver: OtlpReceiver;
  let server: RawAppServer;
  let threadId: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = RawAppServer.start(
      home,
      [],
      cleanEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      }),
    );
    threadId = await startThread(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it.each<[string | null, string]>([
    [null, '2025-11-25'],
    ['x', '2026-07-28'],
  ])(
    'mcpServer/tool/call (environment %s, upstream %s) continues the _meta traceparent',
    async (env, upstreamVersion) => {
      const [trace, clientSpan] = [hex(16), hex(8)];
      const result = await server.call('mcpServer/tool/call', {
        threadId,
        server: 'tr',
        ...(env !== null ? { environmentId: env } : {}),
        tool: 'probe',
        arguments: { value: ARG },
        _meta: { traceparent: `00-${trace}-${clientSpan}-01` },
      });
      const meta = received(result);
      expect(meta['threadId']).toBe(threadId);
      const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(meta['traceparent']));
      expect(m?.[1]).toBe(trace);
      const sentSpan = m![2]!;
      expect(sentSpan).not.toBe(clientSpan);

      const upstream = await span(receiver, (s) => s.spanId === sentSpan, 'the CLIENT span');
      expect(upstream).toMatchObject({ traceId: trace, kind: CLIENT, name: 'tools/call probe' });
      expect(upstream.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'probe',
        'mcp.protocol.version': upstreamVersion,
        'mcprt.server': 'tr',
      });
      expect(upstream.attributes['mcprt.environment']).toBe(env ?? undefined);
      const served = await span(receiver, (s) => s.spanId === upstream.parentSpanId, 'SERVER');
      expect(served).toMatchObject({
        traceId: trace,
        parentSpanId: clientSpan,
        kind: SERVER,
        name: 'mcpServer/tool/call probe',
        serviceName: 'mcprt',
      });
      expect(served.attributes).toMatchObject({
        'rpc.method': 'mcpServer/tool/call',
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'probe',
        'mcprt.server': 'tr',
      });
      const exported = receiver.bodies.join('\n');
      expect(exported).not.toContain(ARG);
      expect(exported).not.toContain(RESULT);
    },
  );

  it('an mcpServer/* request without trace context starts a trace of its own', async () => {
    const before = new Set(receiver.spans().map((s) => s.spanId));
    await server.call('mcpServer/resource/read', {
      threadId,
      server: 'tr',
      uri: 'trace://probe',
    });
    const served = await span(
      receiver,
      (s) => !before.has(s.spanId) && s.name === 'mcpServer/resource/read',
      'the read SERVER span',
    );
    expect(served).toMatchObject({ kind: SERVER, parentSpanId: '' });
    expect(served.attributes['mcp.resource.uri']).toBe('trace://probe');
    const upstream = await span(receiver, (s) => s.parentSpanId === served.spanId, 'its CLIENT');
    expect(upstream).toMatchObject({ kind: CLIENT, name: 'resources/read trace://probe' });
  });
});

describe('app-server shutdown', () => {
  it('closing stdin exports the spans still queued', async () => {
    const receiver = await startOtlpReceiver();
    // A batch delay far beyond the test: only the shutdown's flush can export the spans.
    const server = RawAppServer.start(
      home,
      [],
      cleanEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      }),
    );
    const trace = hex(16);
    try {
      const threadId = await startThread(server);
      await server.call('mcpServer/tool/call', {
        threadId,
        server: 'tr',
        tool: 'probe',
        arguments: { value: ARG },
        _meta: { traceparent: `00-${trace}-${hex(8)}-01` },
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.spans().filter((s) => s.traceId === trace)).toEqual([]);
    } finally {
      expect(await server.close()).toBe(0);
    }
    const kinds = receiver
      .spans()
      .filter((s) => s.traceId === trace)
      .map((s) => s.kind)
      .sort();
    expect(kinds).toEqual([SERVER, CLIENT]);
    await receiver.close();
  }, 60_000);
});

describe('app-server with tracing off', () => {
  it('forwards the _meta traceparent unchanged and exports nothing', async () => {
    const receiver = await startOtlpReceiver();
    // Only the endpoint's absence turns it off: every other setting is there.
    const server = RawAppServer.start(home, [], cleanEnv({ OTEL_BSP_SCHEDULE_DELAY: '50' }));
    try {
      const threadId = await startThread(server);
      const given = `00-${hex(16)}-${hex(8)}-01`;
      const result = await server.call('mcpServer/tool/call', {
        threadId,
        server: 'tr',
        tool: 'probe',
        arguments: { value: ARG },
        _meta: { traceparent: given, tracestate: 'k=v' },
      });
      expect(received(result)).toMatchObject({ traceparent: given, tracestate: 'k=v' });
    } finally {
      await server.close();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.bodies).toEqual([]);
    await receiver.close();
  }, 60_000);
});
