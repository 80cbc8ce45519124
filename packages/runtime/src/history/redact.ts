/**
 * What history keeps of a call: arguments with secret-looking keys replaced (at any depth,
 * case-insensitively, by configured key names), and results cut to a byte budget with an
 * explicit truncation marker. Pure functions; the caller still gets the full result.
 */

export const REDACTED = '[REDACTED]';

export function redactArguments(value: unknown, keys: readonly string[]): unknown {
  const lower = new Set(keys.map((k) => k.toLowerCase()));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, inner]) => [
        k,
        lower.has(k.toLowerCase()) ? REDACTED : walk(inner),
      ]),
    );
  };
  return walk(value);
}

export interface StoredResult {
  readonly json: string | null;
  readonly truncated: boolean;
}

/**
 * Serialize a result for storage. Over `maxBytes`, store instead
 * `{"truncated": true, "originalBytes": N, "preview": "<first bytes of the JSON>…"}`.
 */
export function capResult(result: unknown, maxBytes: number): StoredResult {
  if (result === undefined) return { json: null, truncated: false };
  const json = JSON.stringify(result);
  const bytes = Buffer.byteLength(json);
  if (bytes <= maxBytes) return { json, truncated: false };
  const previewBudget = Math.max(0, maxBytes - 100);
  const preview = Buffer.from(json)
    .subarray(0, previewBudget)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return {
    json: JSON.stringify({ truncated: true, originalBytes: bytes, preview: `${preview}…` }),
    truncated: true,
  };
}
