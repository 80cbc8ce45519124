/**
 * Traces for `mcprt serve` and `mcprt app-server` (docs/observability.md, Traces), configured by
 * the standard OTEL_* environment variables and off unless an OTLP endpoint is set
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), OTEL_SDK_DISABLED is not
 * "true" and OTEL_TRACES_EXPORTER is not "none". The values the SDK would quietly replace by a
 * default are checked here first: a bad one is one line on stderr and tracing stays off — never
 * a failed gateway. The SDK itself (tracingSdk.ts) is loaded only when tracing is on. A value is
 * named in the line only when it cannot hold a secret (an endpoint URL or headers may).
 */

import type { Io } from './io.js';
import { closeOnSignal } from './shutdown.js';

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];
/** Settings the batch processor and exporter read as numbers of milliseconds or spans. */
const NUMBERS = [
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_EXPORT_TIMEOUT',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
];

export type TracingSettings =
  | { readonly on: false; readonly problem?: string }
  | { readonly on: true; readonly serviceName: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Whether the environment turns tracing on, and the first bad value when it does. */
export function tracingSettings(env: Env): TracingSettings {
  const set = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const endpointName = set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = set(endpointName);
  if (endpoint === undefined || set('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') {
    return { on: false };
  }
  const exporters = (set('OTEL_TRACES_EXPORTER') ?? 'otlp').split(',').map((e) => e.trim());
  if (exporters.includes('none')) return { on: false };
  const bad = (problem: string): TracingSettings => ({ on: false, problem });
  const other = exporters.find((e) => e !== 'otlp');
  if (other !== undefined) {
    return bad(`OTEL_TRACES_EXPORTER="${other}" is not supported (only "otlp" or "none")`);
  }
  if (!isHttpUrl(endpoint)) return bad(`${endpointName} is not an http:// or https:// URL`);
  const protocolName = set('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = set(protocolName);
  if (protocol !== undefined && protocol !== 'http/json') {
    return bad(`${protocolName}="${protocol}" is not supported (only "http/json")`);
  }
  const sampler = set('OTEL_TRACES_SAMPLER');
  if (sampler !== undefined && !SAMPLERS.includes(sampler)) {
    return bad(`OTEL_TRACES_SAMPLER="${sampler}" is not one of ${SAMPLERS.join(', ')}`);
  }
  const ratio = set('OTEL_TRACES_SAMPLER_ARG');
  if (sampler?.endsWith('traceidratio') && ratio !== undefined) {
    const value = Number(ratio);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      return bad(`OTEL_TRACES_SAMPLER_ARG="${ratio}" is not a number from 0 to 1`);
    }
  }
  for (const name of NUMBERS) {
    const value = set(name);
    if (value !== undefined && !/^\d+$/.test(value)) {
      return bad(`${name}="${value}" is not a whole number`);
    }
  }
  return { on: true, serviceName: set('OTEL_SERVICE_NAME') ?? 'mcprt' };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Turn tracing on when the environment says so; returns what flushes and stops it (a no-op when
 * off), which also runs on SIGTERM/SIGINT/SIGHUP after everything else has closed — it is
 * registered before the command's own closers, and the last registered closes first.
 */
export async function startTracing(io: Io, env: Env = process.env): Promise<() => Promise<void>> {
  const settings = tracingSettings(env);
  if (!settings.on) {
    if (settings.problem !== undefined) io.err(`mcprt: tracing is off: ${settings.problem}`);
    return () => Promise.resolve();
  }
  let stop: () => Promise<void>;
  try {
    const { startTracingSdk } = await import('./tracingSdk.js');
    stop = startTracingSdk(settings.serviceName);
  } catch (error) {
    io.err(`mcprt: tracing is off: ${error instanceof Error ? error.message : String(error)}`);
    return () => Promise.resolve();
  }
  let stopped: Promise<void> | undefined;
  const once = () => (stopped ??= stop());
  closeOnSignal(once);
  return once;
}
