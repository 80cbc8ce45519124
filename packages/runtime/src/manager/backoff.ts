/**
 * Restart delays: exponential from the configured first delay, capped at 30 s, with ±20 %
 * jitter so servers that crashed together do not restart in lockstep. `random` is a seam for
 * tests.
 */

export const MAX_RESTART_DELAY_MS = 30_000;

export function restartDelay(
  firstMs: number,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(MAX_RESTART_DELAY_MS, firstMs * 2 ** Math.max(0, attempt - 1));
  const jitter = 0.8 + 0.4 * random();
  return Math.round(base * jitter);
}

/** How long a server must stay up after a restart before its attempt count resets. */
export const STABLE_AFTER_MS = 10_000;
