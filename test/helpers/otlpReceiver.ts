/**
 * An OTLP/HTTP trace receiver for the tracing tests: a real `node:http` server on loopback that
 * takes `POST /v1/traces` (JSON, as the OpenTelemetry OTLP/HTTP exporter sends it), answers 200,
 * and keeps every body as received, so a test can read the spans and search the exported bytes.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly serviceName: unknown;
}

export interface OtlpReceiver {
  /** The endpoint to give as OTEL_EXPORTER_OTLP_ENDPOINT (`http://127.0.0.1:PORT`). */
  readonly endpoint: string;
  /** Every body received, as text, in order. */
  readonly bodies: string[];
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

type AnyValue = Record<string, unknown>;

function value(v: AnyValue | undefined): unknown {
  if (v === undefined) return undefined;
  if ('stringValue' in v) return v['stringValue'];
  if ('intValue' in v) return Number(v['intValue']);
  if ('boolValue' in v) return v['boolValue'];
  if ('doubleValue' in v) return v['doubleValue'];
  return v;
}

function attributes(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of (list ?? []) as { key: string; value?: AnyValue }[]) out[a.key] = value(a.value);
  return out;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const spans = (): ReceivedSpan[] =>
    bodies.flatMap((body) => {
      const parsed = JSON.parse(body) as {
        resourceSpans?: {
          resource?: { attributes?: unknown };
          scopeSpans?: { spans?: Record<string, unknown>[] }[];
        }[];
      };
      return (parsed.resourceSpans ?? []).flatMap((rs) => {
        const serviceName = attributes(rs.resource?.attributes)['service.name'];
        return (rs.scopeSpans ?? []).flatMap((ss) =>
          (ss.spans ?? []).map((s) => ({
            traceId: String(s['traceId']),
            spanId: String(s['spanId']),
            parentSpanId: String(s['parentSpanId'] ?? ''),
            name: String(s['name']),
            kind: Number(s['kind']),
            attributes: attributes(s['attributes']),
            statusCode: Number((s['status'] as { code?: number } | undefined)?.code ?? 0),
            serviceName,
          })),
        );
      });
    });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
