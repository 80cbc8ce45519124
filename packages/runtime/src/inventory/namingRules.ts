/**
 * The rules a model-visible tool name is made by, shared by the two ways names are assigned
 * (`naming.ts`: the direct assignment, `namingGeneral.ts`: every step over every distinct tool):
 * sanitizing, the namespace of a registration, the hash identities, the hashed forms and the
 * raw-identity order. Codex's normalize step (codex-behaviour.md §3.3) with an
 * environment-qualified namespace. Pure functions.
 */

import { createHash } from 'node:crypto';

import type { RegistrationScope } from '../scope.js';

/** Upper bound on a flattened model-visible tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;

const HASH_HEX_LENGTH = 12;
/** `_` + 12 hex chars. */
const HASH_SUFFIX_LENGTH = HASH_HEX_LENGTH + 1;
export const SEPARATOR = '__';
/** Any character sanitizing replaces (tested once per name; most names have none). */
const UNSAFE_CHAR = /[^A-Za-z0-9_]/;

/**
 * Replaces every character (Unicode code point) outside `[A-Za-z0-9_]` with `_`; an empty string
 * becomes `_`.
 */
export function sanitizeNamePart(s: string): string {
  if (s.length === 0) return '_';
  return UNSAFE_CHAR.test(s) ? s.replace(/[^A-Za-z0-9_]/gu, '_') : s;
}

export function hash12(identity: string): string {
  return createHash('sha1').update(identity, 'utf8').digest('hex').slice(0, HASH_HEX_LENGTH);
}

/** Step A for a namespace: the sanitized `mcp__[<environment>__]<server>`. */
export function sanitizedNamespace(scope: RegistrationScope): string {
  return sanitizeNamePart(
    scope.environmentId === null
      ? `mcp__${scope.name}`
      : `mcp__${scope.environmentId}__${scope.name}`,
  );
}

/** Hash identity of a raw namespace (the registration scope). */
export function namespaceIdentity(scope: RegistrationScope): string {
  return `${scope.environmentId ?? ''}\u0000${scope.name}`;
}

/**
 * Exact-equality key of a registration scope. Unlike the hash identity it keeps a thread-wide
 * registration (`null`) distinct from an environment whose id is the empty string.
 */
export function distinctScopeKey(scope: RegistrationScope): string {
  return scope.environmentId === null
    ? `t\u0000${scope.name}`
    : `e${scope.environmentId}\u0000${scope.name}`;
}

/** A raw tool placed in raw-identity order: its hash identity, then its exact-equality key. */
export interface RawOrder {
  /** `namespaceIdentity(scope) + NUL + tool`: the hash identity and first sort key. */
  readonly identity: string;
  /** `distinctScopeKey(scope) + NUL + tool`: breaks the tie of a null vs '' environment id. */
  readonly key: string;
}

export function rawOrder(scope: RegistrationScope, tool: string): RawOrder {
  return {
    identity: `${namespaceIdentity(scope)}\u0000${tool}`,
    key: `${distinctScopeKey(scope)}\u0000${tool}`,
  };
}

export function compareRawOrder(a: RawOrder, b: RawOrder): number {
  if (a.identity !== b.identity) return a.identity < b.identity ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The hashed fallback form of a flattened name, always exactly within the length limit. */
export function hashedName(namespace: string, name: string, hash: string): string {
  const room = MAX_TOOL_NAME_LENGTH - namespace.length - SEPARATOR.length - HASH_SUFFIX_LENGTH;
  if (room >= 0) return `${namespace}${SEPARATOR}${name.slice(0, room)}_${hash}`;
  const nsRoom = MAX_TOOL_NAME_LENGTH - SEPARATOR.length - HASH_HEX_LENGTH;
  return `${namespace.slice(0, nsRoom)}${SEPARATOR}${hash}`;
}

/**
 * Step D's hashed form for a tool that cannot keep its flattened name: the first form (identity
 * hash, then identity + NUL + attempt) that `taken` does not refuse. `taken` returns true to skip a
 * form, or null to give up (the caller then assigns by the general rules); the result is then null.
 */
export function firstFreeHashedName(
  namespace: string,
  name: string,
  identity: string,
  taken: (form: string) => boolean | null,
): string | null {
  let result = hashedName(namespace, name, hash12(identity));
  for (let attempt = 1; ; attempt++) {
    const refused = taken(result);
    if (refused === null) return null;
    if (!refused) return result;
    result = hashedName(namespace, name, hash12(`${identity}\u0000${attempt}`));
  }
}
