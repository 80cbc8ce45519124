/**
 * The `[history]` table: where tool calls are recorded and what is kept of them. Codex has a
 * `[history]` table of its own with other keys, so in `--codex-home` mode it is not read.
 */

import type { Fields } from './fields.js';
import type { KeyPath } from './locate.js';
import type { HistoryConfig } from './types.js';

/** Argument keys whose values are never stored (matched case-insensitively, at any depth). */
export const DEFAULT_REDACT_KEYS = [
  'password',
  'passwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'access_token',
  'refresh_token',
  'client_secret',
  'authorization',
] as const;

export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024;

export const DEFAULT_HISTORY: HistoryConfig = {
  enabled: true,
  redactKeys: DEFAULT_REDACT_KEYS,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  maxEntries: 100_000,
};

const KEYS = new Set(['enabled', 'redact_keys', 'max_result_bytes', 'max_entries']);

export function readHistoryConfig(
  root: Fields,
  warn: (path: KeyPath, problem: string) => void,
): HistoryConfig {
  const table = root.subTable('history');
  if (table === null) return DEFAULT_HISTORY;
  table.unknownKeys(KEYS, warn);
  return {
    enabled: table.boolean('enabled', true),
    redactKeys: table.stringArray('redact_keys') ?? DEFAULT_REDACT_KEYS,
    maxResultBytes:
      table.integerInRange('max_result_bytes', 256, 1 << 30, 'max_result_bytes') ??
      DEFAULT_MAX_RESULT_BYTES,
    maxEntries:
      table.integerInRange('max_entries', 1, 100_000_000, 'max_entries') ??
      DEFAULT_HISTORY.maxEntries,
  };
}
