/**
 * The `[history]` table: where tool calls are recorded and what is kept of them. Codex has a
 * `[history]` table of its own with other keys, so in `--codex-home` mode it is not read.
 */

import type { Fields } from './fields.js';
import type { KeyPath } from './locate.js';
import type { HistoryConfig } from './types.js';

/**
 * Names the default redaction rules always treat as secret (history/redact.ts matches these and
 * any other token/secret/password/auth/cookie/credential/session/key name); kept for reference.
 */
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
  redactKeys: [],
  redactKeysReplace: false,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  maxEntries: 100_000,
};

const KEYS = new Set([
  'enabled',
  'redact_keys',
  'redact_keys_replace',
  'max_result_bytes',
  'max_entries',
]);

export function readHistoryConfig(
  root: Fields,
  warn: (path: KeyPath, problem: string) => void,
): HistoryConfig {
  const table = root.subTable('history');
  if (table === null) return DEFAULT_HISTORY;
  table.unknownKeys(KEYS, warn);
  return {
    enabled: table.boolean('enabled', true),
    redactKeys: table.stringArray('redact_keys') ?? [],
    redactKeysReplace: table.boolean('redact_keys_replace', false),
    maxResultBytes:
      table.integerInRange('max_result_bytes', 256, 1 << 30, 'max_result_bytes') ??
      DEFAULT_MAX_RESULT_BYTES,
    maxEntries:
      table.integerInRange('max_entries', 1, 100_000_000, 'max_entries') ??
      DEFAULT_HISTORY.maxEntries,
  };
}
