/**
 * Deterministic JSON text for generated files: keys sorted, and laid out exactly as Prettier
 * (printWidth 100, 2 spaces) lays out JSON, so `prettier --check` accepts the generated schema
 * without a lint exception: non-empty objects one key per line, arrays on one line when they fit.
 */

const WIDTH = 100;
const INDENT = '  ';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Recursively sort object keys; `required` lists (sets of names) are sorted too. */
export function sortJson(value: unknown): Json {
  if (Array.isArray(value)) return value.map(sortJson);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      out[key] =
        key === 'required' && Array.isArray(v) && v.every((x) => typeof x === 'string')
          ? [...(v as string[])].sort()
          : sortJson(v);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`cannot write non-finite number ${value} as JSON`);
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(`cannot write ${typeof value} as JSON`);
  }
  return value as Json;
}

/** The single-line form, or null when the value contains a non-empty object (always expanded). */
function flat(value: Json): string | null {
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const text = flat(item);
      if (text === null) return null;
      parts.push(text);
    }
    return `[${parts.join(', ')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.keys(value).length === 0 ? '{}' : null;
  }
  return JSON.stringify(value);
}

/**
 * Print `value` whose first line starts after `prefix` characters at `depth`, followed on the
 * same line by `suffix` characters (a comma) before the next possible line break.
 */
function print(value: Json, depth: number, prefix: number, suffix: number): string {
  const pad = INDENT.repeat(depth);
  const inner = INDENT.repeat(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const oneLine = flat(value);
    if (oneLine !== null && prefix + oneLine.length + suffix <= WIDTH) return oneLine;
    const items = value.map(
      (item, i) => inner + print(item, depth + 1, inner.length, i < value.length - 1 ? 1 : 0),
    );
    return `[\n${items.join(',\n')}\n${pad}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{}';
    const lines = keys.map((key, i) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      const item = value[key] as Json;
      return head + print(item, depth + 1, head.length, i < keys.length - 1 ? 1 : 0);
    });
    return `{\n${lines.join(',\n')}\n${pad}}`;
  }
  return JSON.stringify(value);
}

/** Sorted, Prettier-stable JSON text with a trailing newline. */
export function toJsonText(value: unknown): string {
  return `${print(sortJson(value), 0, 0, 0)}\n`;
}
