import type { ServerStatus, StartupStatus } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { readiness } from './readiness.js';

function status(
  name: string,
  startupStatus: StartupStatus | null,
  options: { required?: boolean; environmentId?: string | null; enabled?: boolean } = {},
): ServerStatus {
  const environmentId = options.environmentId ?? null;
  return {
    scope: { name, environmentId },
    name,
    environmentId,
    enabled: options.enabled ?? startupStatus !== null,
    required: options.required ?? false,
    startupStatus,
    error: `spawn /secret/path failed: TOKEN=hunter2`,
  } as unknown as ServerStatus;
}

describe('readiness', () => {
  it('waits for every required registration, naming only server, environment and state', () => {
    const result = readiness(
      [
        status('db', 'failed', { required: true, environmentId: 'prod' }),
        status('cache', 'starting', { required: true }),
        status('ok', 'ready', { required: true }),
        status('optional', 'failed'),
      ],
      true,
    );
    expect(result).toEqual({
      ready: false,
      waiting: [
        { server: 'db', environment: 'prod', state: 'failed' },
        { server: 'cache', environment: null, state: 'starting' },
      ],
    });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('is ready when every required registration is, whatever the others do', () => {
    const statuses = [status('a', 'ready', { required: true }), status('b', 'starting')];
    expect(readiness(statuses, false)).toEqual({ ready: true, waiting: [] });
  });

  it('ignores disabled registrations, required or not', () => {
    const statuses = [status('off', null, { required: true }), status('on', 'ready')];
    expect(readiness(statuses, false).ready).toBe(true);
  });

  it('without required registrations, waits for those starting until the wait is over', () => {
    const statuses = [status('slow', 'starting'), status('broken', 'failed')];
    expect(readiness(statuses, false)).toEqual({
      ready: false,
      waiting: [{ server: 'slow', environment: null, state: 'starting' }],
    });
    expect(readiness(statuses, true).ready).toBe(true);
    expect(readiness([status('broken', 'failed')], false).ready).toBe(true);
    expect(readiness([], false).ready).toBe(true);
  });
});
