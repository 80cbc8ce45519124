/**
 * Timeouts as the SDK takes them: Node timers fire at once beyond 2^31-1 ms (~24.8 days), so every
 * configured timeout is clamped; every request passes its own timeout, so the SDK's 60 s default
 * never caps a longer configured one.
 */

const MAX_TIMER_MS = 2 ** 31 - 1;

export const clampMs = (ms: number): number => Math.min(ms, MAX_TIMER_MS);

export interface RequestLimits {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** The SDK's request options for one request. */
export function requestOptions(limits: RequestLimits): { timeout: number; signal?: AbortSignal } {
  return {
    timeout: clampMs(limits.timeoutMs),
    ...(limits.signal ? { signal: limits.signal } : {}),
  };
}
