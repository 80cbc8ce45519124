/**
 * Traces of `mcprt serve` (docs/observability.md, Traces), with the real OpenTelemetry SDK and
 * OTLP/HTTP exporter sending to a receiver this test runs: a call continues the client's trace
 * (its `_meta.traceparent`, else the HTTP `traceparent` header) in a SERVER span, the upstream
 * request is a CLIENT span below it, and the fixture server receives that CLIENT span — not the
 * client's — as its parent, in both eras towards the client and towards the server, for a
 * thread-wide registration, one of an exec environment and HTTP servers (the SDK client's path),
 * over HTTP and over stdio (whose fast path steps aside). A tool error marks both spans; reads
 * and prompts are traced too. Arguments and results are never exported. Tracing off, a bad
 * OTEL value and the flush on SIGTERM: tracingOff.test.ts.
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, NODE } from '../helpers/fixtures.js';
import type { OtlpReceiver } from '../helpers/otlpReceiver.js';
import { startOtlpReceiver } from '../helpers/otlpReceiver.js';
import type { Era } from './helpers.js';
import { CLI } from './helpers.js';
import type { Gateway } from './tracingHelpers.js';
import {
  ARG,
  CLIENT,
  ERROR,
  hex,
  httpClient,
  httpGateway,
  listedTool,
  otelEnv,
  parts,
  received,
  RESULT,
  SERVER,
  span,
  toolName,
  traceHome,
  TRACE_SERVER,
  traceparent,
} from './tracingHelpers.js';

const home = traceHome();

describe('gateway traces over HTTP', () => {
  let receiver: OtlpReceiver;
  let gateway: Gateway;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    gateway = await httpGateway(otelEnv(receiver), home);
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  describe.each<Era>(['legacy', 'auto'])('client era %s', (era) => {
    it.each<[string | null, string]>([
      [null, '2025-11-25'],
      ['x', '2026-07-28'],
    ])(
      'a call (environment %s, upstream %s) continues the client’s trace down to the server',
      async (env, upstreamVersion) => {
        const client = await httpClient(gateway.url, era);
        try {
          const name = await toolName(client, env, 'probe');
          const [trace, clientSpan] = [hex(16), hex(8)];
          const result = await client.callTool({
            name,
            arguments: { value: ARG },
            _meta: { traceparent: traceparent(trace, clientSpan), tracestate: 'vendor=1' },
          });
          const meta = received(result);
          // The server's parent is the gateway's upstream span, in the client's trace.
          const sent = parts(meta['traceparent']);
          expect(sent.trace).toBe(trace);
          expect(sent.span).not.toBe(clientSpan);
          expect(sent.flags).toBe('01');
          expect(meta['tracestate']).toBe('vendor=1');
          expect(JSON.stringify(meta)).not.toContain(clientSpan);

          const upstream = await span(receiver, (s) => s.spanId === sent.span, 'the CLIENT span');
          expect(upstream).toMatchObject({
            traceId: trace,
            kind: CLIENT,
            name: 'tools/call probe',
          });
          expect(upstream.attributes).toEqual({
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': 'probe',
            'mcp.protocol.version': upstreamVersion,
            'mcprt.server': 'tr',
            ...(env !== null ? { 'mcprt.environment': env } : {}),
          });
          expect(upstream.statusCode).not.toBe(ERROR);
          const served = await span(
            receiver,
            (s) => s.spanId === upstream.parentSpanId,
            'the SERVER span',
          );
          expect(served).toMatchObject({
            traceId: trace,
            parentSpanId: clientSpan,
            kind: SERVER,
            name: `tools/call ${name}`,
            serviceName: 'mcprt-test',
          });
          expect(served.attributes).toMatchObject({
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': name,
            'mcp.protocol.version': era === 'legacy' ? '2025-11-25' : '2026-07-28',
            'mcprt.server': 'tr',
          });
          expect(served.attributes['mcprt.environment']).toBe(env ?? undefined);
          // Neither the argument nor the result ever leaves in a span.
          const exported = receiver.bodies.join('\n');
          expect(exported).toContain(trace);
          expect(exported).not.toContain(ARG);
          expect(exported).not.toContain(RESULT);
        } finally {
          await client.close();
        }
      },
    );
  });

  it.each<Era>(['legacy', 'auto'])(
    'continues the HTTP traceparent header when _meta has none (%s)',
    async (era) => {
      const [trace, headerSpan] = [hex(16), hex(8)];
      const client = await httpClient(gateway.url, era, {
        traceparent: traceparent(trace, headerSpan),
      });
      try {
        const name = await toolName(client, null, 'probe');
        const meta = received(await client.callTool({ name, arguments: { value: ARG } }));
        const sent = parts(meta['traceparent']);
        expect(sent.trace).toBe(trace);
        const upstream = await span(receiver, (s) => s.spanId === sent.span, 'the CLIENT span');
        const served = await span(receiver, (s) => s.spanId === upstream.parentSpanId, 'SERVER');
        expect(served).toMatchObject({ traceId: trace, parentSpanId: headerSpan, kind: SERVER });
      } finally {
        await client.close();
      }
    },
  );

  it('marks a tool error on both spans, and traces reads and prompts', async () => {
    const client = await httpClient(gateway.url, 'legacy');
    try {
      const fail = await toolName(client, 'x', 'fail');
      const trace = hex(16);
      const result = await client.callTool({
        name: fail,
        _meta: { traceparent: traceparent(trace, hex(8)) },
      });
      expect(result.isError).toBe(true);
      const upstream = await span(
        receiver,
        (s) => s.traceId === trace && s.kind === CLIENT,
        'the failed CLIENT span',
      );
      expect(upstream.statusCode).toBe(ERROR);
      expect(upstream.attributes['error.type']).toBe('tool_error');
      const served = await span(receiver, (s) => s.spanId === upstream.parentSpanId, 'SERVER');
      expect(served.statusCode).toBe(ERROR);
      expect(served.attributes['error.type']).toBe('tool_error');

      const resource = (await client.listResources()).resources.find((r) =>
        r.uri.includes('trace://probe'),
      );
      expect(resource).toBeDefined();
      const read = await client.readResource({ uri: resource!.uri });
      const readMeta = JSON.parse(String((read.contents[0] as { text: string }).text)) as {
        meta: Record<string, unknown>;
      };
      const readSpan = parts(readMeta.meta['traceparent']).span;
      const readUpstream = await span(receiver, (s) => s.spanId === readSpan, 'the read span');
      expect(readUpstream).toMatchObject({ kind: CLIENT, name: 'resources/read trace://probe' });
      expect(readUpstream.attributes['mcp.resource.uri']).toBe('trace://probe');
      await span(receiver, (s) => s.spanId === readUpstream.parentSpanId, 'its SERVER span');

      const prompt = (await client.listPrompts()).prompts.find((p) => p.name.endsWith('greet'));
      const got = await client.getPrompt({ name: prompt!.name });
      const promptMeta = JSON.parse((got.messages[0]!.content as { text: string }).text) as {
        meta: Record<string, unknown>;
      };
      const promptSpan = parts(promptMeta.meta['traceparent']).span;
      const promptUpstream = await span(receiver, (s) => s.spanId === promptSpan, 'prompt span');
      expect(promptUpstream).toMatchObject({ kind: CLIENT, name: 'prompts/get greet' });
      expect(promptUpstream.attributes['gen_ai.prompt.name']).toBe('greet');
    } finally {
      await client.close();
    }
  });
});

describe('gateway traces towards an HTTP server', () => {
  let receiver: OtlpReceiver;
  let upstream: ChildProcess;
  let gateway: Gateway;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = spawn(NODE, [TRACE_SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) => {
      let out = '';
      upstream.stdout!.on('data', (d: Buffer) => {
        out += String(d);
        const m = /PORT (\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    // Both revisions on the SDK client's path (HTTP: no fast path).
    const httpHome = makeHome(
      `[mcp_servers.w25]\nurl = "${url}"\nprotocol_version = "2025-11-25"\n` +
        `[mcp_servers.w26]\nurl = "${url}"\nprotocol_version = "2026-07-28"\n`,
    );
    gateway = await httpGateway(otelEnv(receiver), httpHome);
  });
  afterAll(async () => {
    await gateway?.stop();
    upstream?.kill();
    await receiver?.close();
  });

  it.each([
    ['w25', '2025-11-25'],
    ['w26', '2026-07-28'],
  ])('the %s server (%s) receives the upstream span as its parent', async (server, version) => {
    const client = await httpClient(gateway.url, 'auto');
    try {
      const name = await listedTool(client, `${server}__probe`);
      const [trace, clientSpan] = [hex(16), hex(8)];
      const meta = received(
        await client.callTool({
          name,
          arguments: { value: ARG },
          _meta: { traceparent: traceparent(trace, clientSpan) },
        }),
      );
      const sent = parts(meta['traceparent']);
      expect(sent.trace).toBe(trace);
      const up = await span(receiver, (s) => s.spanId === sent.span, 'the CLIENT span');
      expect(up).toMatchObject({ kind: CLIENT, name: 'tools/call probe' });
      expect(up.attributes).toMatchObject({
        'mcp.protocol.version': version,
        'mcprt.server': server,
      });
      const served = await span(receiver, (s) => s.spanId === up.parentSpanId, 'SERVER');
      expect(served).toMatchObject({ traceId: trace, parentSpanId: clientSpan, kind: SERVER });
      expect(receiver.bodies.join('\n')).not.toContain(ARG);
    } finally {
      await client.close();
    }
  });
});

describe('gateway traces over stdio', () => {
  it.each<Era>(['legacy', 'auto'])(
    'traces a call on the stdio gateway, %s era (its fast path steps aside)',
    async (era) => {
      const receiver = await startOtlpReceiver();
      const client = new Client(
        { name: 'trace-test', version: '1.0.0' },
        era === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {},
      );
      await client.connect(
        new StdioClientTransport({
          command: NODE,
          args: [CLI, '--home', home, 'serve'],
          env: otelEnv(receiver),
          stderr: 'pipe',
        }),
      );
      try {
        const name = await toolName(client, null, 'probe');
        const [trace, clientSpan] = [hex(16), hex(8)];
        const meta = received(
          await client.callTool({
            name,
            arguments: { value: ARG },
            _meta: { traceparent: traceparent(trace, clientSpan) },
          }),
        );
        const sent = parts(meta['traceparent']);
        expect(sent.trace).toBe(trace);
        const upstream = await span(receiver, (s) => s.spanId === sent.span, 'the CLIENT span');
        const served = await span(receiver, (s) => s.spanId === upstream.parentSpanId, 'SERVER');
        expect(served).toMatchObject({ traceId: trace, parentSpanId: clientSpan, kind: SERVER });
        expect(receiver.bodies.join('\n')).not.toContain(ARG);
      } finally {
        await client.close();
        await receiver.close();
      }
    },
  );
});
