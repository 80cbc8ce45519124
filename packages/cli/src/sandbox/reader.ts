/**
 * Strict readers for the sandbox state JSON: each names the field it is about
 * (`sandboxPolicy.writableRoots[1]`) and refuses what it does not know — an unknown field in a
 * policy might restrict something this launcher would silently not enforce.
 */

import { unenforceable } from './errors.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `\`${value}\``;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function object(value: unknown, where: string): JsonObject {
  if (!isObject(value)) throw unenforceable(`${where} must be an object, got ${describe(value)}`);
  return value;
}

/** Refuse fields this launcher does not know. */
export function onlyKeys(obj: JsonObject, known: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw unenforceable(`unknown field \`${key}\` in ${where}`);
  }
}

export function optionalBoolean(obj: JsonObject, key: string, where: string): boolean | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'boolean') {
    throw unenforceable(`${where}.${key} must be a boolean, got ${describe(value)}`);
  }
  return value;
}

export function string(value: unknown, where: string): string {
  if (typeof value !== 'string') {
    throw unenforceable(`${where} must be a string, got ${describe(value)}`);
  }
  return value;
}

export function oneOf<T extends string>(value: unknown, known: readonly T[], where: string): T {
  if (typeof value === 'string' && (known as readonly string[]).includes(value)) return value as T;
  throw unenforceable(
    `unknown ${where} ${describe(value)} (this launcher knows ${known.map((k) => `\`${k}\``).join(', ')})`,
  );
}
