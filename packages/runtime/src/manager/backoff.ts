/**
 * Restart delays of the `on-failure` policy: `@mcprt/base`'s backoff from the configured first
 * delay, capped at 30 s, with ±20 % jitter so servers that crashed together do not restart in
 * lockstep.
 */

import { backoffDelay } from '@mcprt/base';

export const MAX_RESTART_DELAY_MS = 30_000;

export function restartDelay(firstMs: number, attempt: number): number {
  return backoffDelay(attempt, { firstMs, maxMs: MAX_RESTART_DELAY_MS, jitter: 0.2 });
}

/** How long a server must stay up after a restart before its attempt count resets. */
export const STABLE_AFTER_MS = 10_000;
