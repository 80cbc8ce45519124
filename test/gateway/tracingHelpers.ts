/**
 * Helpers of the gateway tracing tests (tracing.test.ts, tracingOff.test.ts): a home with the
 * trace fixture server thread-wide (2025-11-25 upstream) and in an exec environment (2026-07-28
 * upstream), `mcprt serve --listen http://127.0.0.1:0` started with a given environment (the
 * OTEL_* variables of the test runner's own removed), raw SDK clients of either era, and readers
 * of what the fixture received and the receiver got.
 */

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { FIXTURES, makeHome, shExecEnvironment, tempDir, waitFor } from '../helpers/fixtures.js';
import type { OtlpReceiver, ReceivedSpan } from '../helpers/otlpReceiver.js';
import type { Era, HttpGateway } from './helpers.js';
import { httpGateway as sharedHttpGateway, stdioServer, texts, TOKEN } from './helpers.js';

export const TRACE_SERVER = join(FIXTURES, 'trace-server.mjs');
export const ARG = 's3cret-arg-value';
export const RESULT = 's3cret-result-value';
export const SERVER = 2;
export const CLIENT = 3;
export const ERROR = 2;

/** A home with the trace fixture thread-wide (2025-11-25) and in exec environment `x` (2026-07-28). */
export function traceHome(): string {
  const cwd = tempDir('mcprt-gw-trace-cwd-');
  return makeHome(
    stdioServer('mcp_servers.tr', TRACE_SERVER) +
      'protocol_version = "2025-11-25"\n' +
      shExecEnvironment('x', cwd) +
      stdioServer('environments.x.mcp_servers.tr', TRACE_SERVER) +
      'protocol_version = "2026-07-28"\n',
  );
}

export const hex = (bytes: number) => randomBytes(bytes).toString('hex');
export const traceparent = (trace: string, span: string) => `00-${trace}-${span}-01`;

/** The process environment without any OTEL_* variable of the test runner's own. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('OTEL_') && value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

export function otelEnv(receiver: OtlpReceiver, extra: Record<string, string> = {}) {
  return cleanEnv({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_SERVICE_NAME: 'mcprt-test',
    ...extra,
  });
}

export type Gateway = HttpGateway;

/** `mcprt serve --listen http://127.0.0.1:0` (helpers.ts) with the tracing environment `env`. */
export function httpGateway(env: Record<string, string>, gatewayHome: string): Promise<Gateway> {
  return sharedHttpGateway(gatewayHome, [], env);
}

export async function httpClient(url: string, era: Era, headers: Record<string, string> = {}) {
  const client = new Client(
    { name: 'trace-test', version: '1.0.0' },
    era === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}`, ...headers } },
    }),
  );
  return client;
}

/** The gateway's name of `tool` of the registration in `env` (null: thread-wide), once listed. */
export function toolName(client: Client, env: string | null, tool: string): Promise<string> {
  return listedTool(client, env === null ? `tr__${tool}` : `${env}__tr__${tool}`);
}

/** `want`, once the gateway lists it. */
export async function listedTool(client: Client, want: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (!(await client.listTools()).tools.some((t) => t.name === want)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${want}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return want;
}

/** The `_meta` the fixture received, from its result. */
export function received(result: unknown): Record<string, unknown> {
  return (JSON.parse(texts(result)[0]!) as { meta: Record<string, unknown> }).meta;
}

/** The id in a `00-<trace>-<span>-<flags>` traceparent. */
export function parts(value: unknown): { trace: string; span: string; flags: string } {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(String(value));
  if (m === null) throw new Error(`not a traceparent: ${String(value)}`);
  return { trace: m[1]!, span: m[2]!, flags: m[3]! };
}

export function span(receiver: OtlpReceiver, match: (s: ReceivedSpan) => boolean, what: string) {
  return waitFor(() => receiver.spans().find(match), 15_000, what);
}
