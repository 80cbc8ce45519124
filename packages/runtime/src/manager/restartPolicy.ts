/**
 * The `restart = "on-failure"` policy: after a crash (or a restart that failed in a way a retry
 * can fix), restart with `@mcprt/base`'s backoff from `restart_backoff_sec`, capped at 30 s with
 * ±20 % jitter so servers that crashed together do not restart in lockstep, until
 * `restart_max_attempts` consecutive attempts have failed; then stay failed (a reload retries).
 * A server that stays up for `STABLE_AFTER_MS` starts a fresh sequence. Pure logic.
 */

import { backoffDelay } from '@mcprt/base';

import type { SupervisionConfig } from '../config/types.js';
import type { FailureKind } from './status.js';

export const MAX_RESTART_DELAY_MS = 30_000;

/** How long a server must stay up after a restart before its attempt count resets. */
export const STABLE_AFTER_MS = 10_000;

/** Failures of a restart attempt that another attempt may fix (not config, auth, cancel). */
export const RETRYABLE = new Set<FailureKind>([
  'exited',
  'timeout',
  'error',
  'protocol_error',
  'crashed',
]);

export function restartDelay(firstMs: number, attempt: number): number {
  return backoffDelay(attempt, { firstMs, maxMs: MAX_RESTART_DELAY_MS, jitter: 0.2 });
}

/**
 * What to do after failure number `consecutive + 1` of a sequence: restart after `delayMs`
 * (attempt `attempt` of `of`), or give up (`suffix` says so, when restarts were allowed).
 */
export function nextRestart(
  supervision: SupervisionConfig | undefined,
  consecutive: number,
  stopped: boolean,
):
  | { restart: true; attempt: number; of: number; delayMs: number }
  | { restart: false; suffix: string } {
  if (
    stopped ||
    !supervision ||
    supervision.restart === 'never' ||
    consecutive >= supervision.maxRestarts
  ) {
    const suffix =
      supervision && supervision.restart !== 'never' && supervision.maxRestarts > 0
        ? ` (gave up after ${consecutive} restart${consecutive === 1 ? '' : 's'})`
        : '';
    return { restart: false, suffix };
  }
  const attempt = consecutive + 1;
  return {
    restart: true,
    attempt,
    of: supervision.maxRestarts,
    delayMs: restartDelay(supervision.restartBackoffMs, attempt),
  };
}
