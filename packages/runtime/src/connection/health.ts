/**
 * Health checks of a live connection (`health_check_interval_sec`): a ping per interval, each
 * bounded by the interval (at most 10 s); a missed answer reports the failure once and stops.
 */

import type { Client } from '@modelcontextprotocol/client';

const MAX_PING_WAIT_MS = 10_000;

/**
 * Ping `client` every `intervalMs` until stopped or until a ping goes unanswered; then
 * `onMissed` gets the reason for people. Returns the stop function.
 */
export function startHealthCheck(
  client: Client,
  intervalMs: number,
  onMissed: (reason: string) => void,
): () => void {
  const wait = Math.min(intervalMs, MAX_PING_WAIT_MS);
  let stopped = false;
  const timer = setInterval(() => {
    client.ping({ timeout: wait }).catch(() => {
      if (stopped) return;
      stop();
      onMissed(`health check failed: no answer to ping within ${wait / 1000} s`);
    });
  }, intervalMs);
  timer.unref();
  const stop = (): void => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
