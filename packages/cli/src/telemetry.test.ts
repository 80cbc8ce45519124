import { describe, expect, it } from 'vitest';

import { tracingSettings } from './telemetry.js';

const ON = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('tracing settings from OTEL_*', () => {
  it('is off without an endpoint, when disabled, or with no exporter', () => {
    expect(tracingSettings({})).toEqual({ on: false });
    expect(tracingSettings({ ...ON, OTEL_SDK_DISABLED: 'TRUE' })).toEqual({ on: false });
    expect(tracingSettings({ ...ON, OTEL_TRACES_EXPORTER: 'none' })).toEqual({ on: false });
  });

  it('is on with either endpoint; the service is mcprt unless named', () => {
    expect(tracingSettings(ON)).toEqual({ on: true, serviceName: 'mcprt' });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/v1/traces',
        OTEL_SERVICE_NAME: 'gw',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      }),
    ).toEqual({ on: true, serviceName: 'gw' });
  });

  it.each([
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER="sometimes" is not one of'],
    [
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
      'OTEL_TRACES_SAMPLER_ARG="2" is not a number from 0 to 1',
    ],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER="zipkin" is not supported'],
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported',
    ],
    [{ OTEL_BSP_SCHEDULE_DELAY: 'soon' }, 'OTEL_BSP_SCHEDULE_DELAY="soon" is not a whole number'],
  ])('a bad value turns it off with a problem: %j', (extra, problem) => {
    const settings = tracingSettings({ ...ON, ...extra });
    expect(settings.on).toBe(false);
    expect(!settings.on && settings.problem).toContain(problem);
  });

  it('never names the endpoint, which may hold credentials', () => {
    const settings = tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://user:pw@host' });
    expect(settings).toEqual({
      on: false,
      problem: 'OTEL_EXPORTER_OTLP_ENDPOINT is not an http:// or https:// URL',
    });
  });
});
