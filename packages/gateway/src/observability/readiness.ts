/**
 * What `/readyz` answers. With `required = true` registrations: ready once every enabled one is
 * ready (a required server that failed keeps the gateway unready until a restart brings it up).
 * Without: ready once startup has settled — no enabled registration is still starting, or the
 * first listings' wait (`[serve] startup_wait_sec`) has passed, as a client's first listing
 * would not wait longer. Disabled registrations never start and never count. The body names
 * what is not ready by server, environment and state only: never a URL, command, environment
 * value or error text (an error may quote a secret).
 */

import type { ServerStatus } from '@mcprt/runtime';

export interface Waiting {
  readonly server: string;
  /** The registration's environment; null for a thread-wide `[mcp_servers.NAME]`. */
  readonly environment: string | null;
  readonly state: string;
}

export interface Readiness {
  readonly ready: boolean;
  readonly waiting: readonly Waiting[];
}

/** `waitOver`: the startup wait has passed (only matters without required registrations). */
export function readiness(statuses: readonly ServerStatus[], waitOver: boolean): Readiness {
  const enabled = statuses.filter((s) => s.enabled && s.startupStatus !== null);
  const required = enabled.filter((s) => s.required);
  const waiting = (
    required.length > 0
      ? required.filter((s) => s.startupStatus !== 'ready')
      : waitOver
        ? []
        : enabled.filter((s) => s.startupStatus === 'starting')
  ).map((s) => ({ server: s.name, environment: s.environmentId, state: s.startupStatus ?? '' }));
  return { ready: waiting.length === 0, waiting };
}
