/**
 * Typed readers for parsed TOML tables: each reads one key, reports a type problem
 * (``expected a string, found integer``) through a callback and returns null when absent or wrong.
 */

import type { KeyPath } from './locate.js';

export type Table = Record<string, unknown>;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

export function isTable(value: unknown): value is Table {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

export function typeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  if (typeof value === 'bigint') return 'integer';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'datetime';
  if (isTable(value)) return 'table';
  return typeof value;
}

export function has(table: Table, key: string): boolean {
  return Object.hasOwn(table, key);
}

/** `a.b."c.d"[2].e`: bare segments as is, others quoted, array indices in brackets. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = BARE_KEY.test(segment) ? segment : JSON.stringify(segment);
      out += out === '' ? key : `.${key}`;
    }
  }
  return out;
}

export function expectedOneOf(values: readonly string[]): string {
  const quoted = values.map((v) => `\`${v}\``);
  if (quoted.length === 1) return `expected ${quoted[0] ?? ''}`;
  if (quoted.length === 2) return `expected ${quoted[0] ?? ''} or ${quoted[1] ?? ''}`;
  return `expected one of ${quoted.join(', ')}`;
}

/**
 * Typed readers for one table. Each reports a problem through `report` (error or warning) and
 * returns null when the value is absent or wrong.
 */
export class Fields {
  constructor(
    readonly table: Table,
    readonly path: KeyPath,
    private readonly report: (path: KeyPath, problem: string) => void,
  ) {}

  has(key: string): boolean {
    return has(this.table, key);
  }

  at(key: string | number): KeyPath {
    return [...this.path, key];
  }

  private typeError(key: string, expected: string, value: unknown): null {
    this.report(this.at(key), `expected ${expected}, found ${typeName(value)}`);
    return null;
  }

  string(key: string): string | null {
    if (!this.has(key)) return null;
    const value = this.table[key];
    return typeof value === 'string' ? value : this.typeError(key, 'a string', value);
  }

  boolean(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const value = this.table[key];
    if (typeof value === 'boolean') return value;
    this.typeError(key, 'a boolean', value);
    return fallback;
  }

  number(key: string): number | null {
    if (!this.has(key)) return null;
    const value = this.table[key];
    return typeof value === 'number' ? value : this.typeError(key, 'a number', value);
  }

  integer(key: string): number | null {
    if (!this.has(key)) return null;
    const value = this.table[key];
    return typeof value === 'number' && Number.isInteger(value)
      ? value
      : this.typeError(key, 'an integer', value);
  }

  /** An integer in `min..=max`; out of range reports `${label} must be between min and max`. */
  integerInRange(key: string, min: number, max: number, label: string): number | null {
    const value = this.integer(key);
    if (value === null) return null;
    if (value < min || value > max) {
      this.report(this.at(key), `${label} must be between ${min} and ${max}`);
      return null;
    }
    return value;
  }

  /** A non-negative integer; a negative one reports `${key} must not be negative`. */
  nonNegativeInteger(key: string): number | null {
    const value = this.integer(key);
    if (value === null) return null;
    if (value < 0) {
      this.report(this.at(key), `${key} must not be negative`);
      return null;
    }
    return value;
  }

  enumeration<T extends string>(key: string, values: readonly T[]): T | null {
    const value = this.string(key);
    if (value === null) return null;
    if ((values as readonly string[]).includes(value)) return value as T;
    this.report(this.at(key), `unknown variant \`${value}\`, ${expectedOneOf(values)}`);
    return null;
  }

  stringArray(key: string): string[] | null {
    if (!this.has(key)) return null;
    const value = this.table[key];
    if (!Array.isArray(value)) return this.typeError(key, 'an array of strings', value);
    const out: string[] = [];
    let ok = true;
    value.forEach((item: unknown, index) => {
      if (typeof item === 'string') out.push(item);
      else {
        ok = false;
        this.report([...this.at(key), index], `expected a string, found ${typeName(item)}`);
      }
    });
    return ok ? out : null;
  }

  stringMap(key: string): Record<string, string> | null {
    if (!this.has(key)) return null;
    const value = this.table[key];
    if (!isTable(value)) return this.typeError(key, 'a table of strings', value);
    const entries: [string, string][] = [];
    let ok = true;
    for (const [name, item] of Object.entries(value)) {
      if (typeof item === 'string') entries.push([name, item]);
      else {
        ok = false;
        this.report([...this.at(key), name], `expected a string, found ${typeName(item)}`);
      }
    }
    return ok ? Object.fromEntries(entries) : null;
  }

  subTable(key: string): Fields | null {
    if (!this.has(key)) return null;
    const value = this.table[key];
    if (!isTable(value)) return this.typeError(key, 'a table', value);
    return new Fields(value, this.at(key), this.report);
  }

  /** Reports every key not in `known` as ``unknown key `k` ``. */
  unknownKeys(known: ReadonlySet<string>, report: (path: KeyPath, problem: string) => void): void {
    for (const key of Object.keys(this.table)) {
      if (!known.has(key)) report(this.at(key), `unknown key \`${key}\``);
    }
  }
}
