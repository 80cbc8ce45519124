/**
 * The OpenTelemetry trace SDK, set up when telemetry.ts has found tracing on: a
 * NodeTracerProvider (its sampler from OTEL_TRACES_SAMPLER / _ARG, read by the SDK) with a
 * BatchSpanProcessor (OTEL_BSP_*) and the OTLP/HTTP JSON exporter (OTEL_EXPORTER_OTLP_*: endpoint,
 * headers, timeout), registered globally with its AsyncLocalStorage context manager, so a
 * request's span is the active context of everything the request causes. The resource names the
 * service `mcprt` unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says otherwise.
 */

import { enableTracing } from '@mcprt/runtime';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const TRACER_NAME = 'mcprt';
const VERSION = '0.1.0';

/** Start the SDK and enable the runtime's tracing; returns the flush-and-stop. */
export function startTracingSdk(serviceName: string): () => Promise<void> {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName, 'service.version': VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  enableTracing(provider.getTracer(TRACER_NAME, VERSION));
  return async () => {
    enableTracing(null);
    // Ends with the export of every span still queued (bounded by OTEL_BSP_EXPORT_TIMEOUT).
    await provider.shutdown().catch(() => undefined);
  };
}
