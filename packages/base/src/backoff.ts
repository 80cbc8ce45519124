/**
 * Exponential backoff, the one formula of mcprt (restarting crashed servers, reconnecting ssh
 * environments): the first delay doubled per attempt, capped, optionally spread by ± a jitter
 * fraction so peers that failed together do not retry in lockstep. `random` is a seam for tests.
 */

export interface BackoffOptions {
  /** Delay before the first retry, in ms. */
  readonly firstMs: number;
  /** Cap of the un-jittered delay, in ms. */
  readonly maxMs: number;
  /** Spread as a fraction (0.2: ±20 %); default 0. */
  readonly jitter?: number;
  readonly random?: () => number;
}

/** Delay before retry number `attempt` (1-based), in whole ms. */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const base = Math.min(options.maxMs, options.firstMs * 2 ** Math.max(0, attempt - 1));
  const jitter = options.jitter ?? 0;
  if (jitter === 0) return Math.round(base);
  const spread = 1 - jitter + 2 * jitter * (options.random ?? Math.random)();
  return Math.round(base * spread);
}
