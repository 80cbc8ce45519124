/**
 * Supervision keys of a server table: restart policy and backoff, how long a call waits for a
 * restarting server, the maximum message size, and the optional ping health check. mcprt keys
 * (Codex has none of them); defaults keep a crashed stdio server coming back.
 */

import type { Fields } from './fields.js';
import type { KeyPath } from './locate.js';
import { secondsToMs } from './duration.js';
import type { SupervisionConfig } from './types.js';

export const SUPERVISION_KEYS = [
  'restart',
  'restart_max_attempts',
  'restart_backoff_sec',
  'restart_wait_sec',
  'max_message_bytes',
  'health_check_interval_sec',
] as const;

export const DEFAULT_SUPERVISION: SupervisionConfig = {
  restart: 'on-failure',
  maxRestarts: 5,
  restartBackoffMs: 500,
  restartWaitMs: 5_000,
  maxMessageBytes: 64 * 1024 * 1024,
  healthCheckIntervalMs: null,
};

export function readSupervision(
  f: Fields,
  error: (path: KeyPath, problem: string) => void,
): SupervisionConfig {
  const seconds = (key: string): number | null => {
    const value = f.number(key);
    if (value === null) return null;
    const converted = secondsToMs(value);
    if ('problem' in converted) {
      error(f.at(key), converted.problem);
      return null;
    }
    return converted.ms;
  };
  const interval = seconds('health_check_interval_sec');
  if (interval !== null && interval < 100) {
    error(f.at('health_check_interval_sec'), 'health_check_interval_sec must be at least 0.1');
  }
  return {
    restart:
      f.enumeration('restart', ['on-failure', 'never'] as const) ?? DEFAULT_SUPERVISION.restart,
    maxRestarts:
      f.integerInRange('restart_max_attempts', 0, 1000, 'restart_max_attempts') ??
      DEFAULT_SUPERVISION.maxRestarts,
    restartBackoffMs: seconds('restart_backoff_sec') ?? DEFAULT_SUPERVISION.restartBackoffMs,
    restartWaitMs: seconds('restart_wait_sec') ?? DEFAULT_SUPERVISION.restartWaitMs,
    maxMessageBytes:
      f.integerInRange('max_message_bytes', 1024, 2 ** 31 - 1, 'max_message_bytes') ??
      DEFAULT_SUPERVISION.maxMessageBytes,
    healthCheckIntervalMs: interval !== null && interval >= 100 ? interval : null,
  };
}
