/**
 * Model-visible tool names. Owns the mapping from (registration scope, raw MCP tool name) to the
 * flattened `namespace__tool` name the model sees. This is the one place that must guarantee those
 * names are valid (`[A-Za-z0-9_]{1,64}`), unique, and stable. It follows Codex's normalize step
 * (codex-behaviour.md §3.3), with an environment-qualified namespace added so that same-named
 * servers in different environments never collide. Pure logic: no I/O, no runtime state.
 */

import { createHash } from 'node:crypto';

import type { RegistrationScope } from '../scope.js';

export interface ToolNameCandidate {
  readonly scope: RegistrationScope;
  /** Raw MCP tool name, exactly as the server listed it. */
  readonly tool: string;
}

/** Upper bound on a flattened model-visible tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;

const HASH_HEX_LENGTH = 12;
/** `_` + 12 hex chars. */
const HASH_SUFFIX_LENGTH = HASH_HEX_LENGTH + 1;
const SEPARATOR = '__';

/**
 * Replaces every character (Unicode code point) outside `[A-Za-z0-9_]` with `_`; an empty string
 * becomes `_`.
 */
export function sanitizeNamePart(s: string): string {
  if (s.length === 0) return '_';
  return s.replace(/[^A-Za-z0-9_]/gu, '_');
}

function hash12(identity: string): string {
  return createHash('sha1').update(identity, 'utf8').digest('hex').slice(0, HASH_HEX_LENGTH);
}

function rawNamespace(scope: RegistrationScope): string {
  return scope.environmentId === null
    ? `mcp__${scope.name}`
    : `mcp__${scope.environmentId}__${scope.name}`;
}

/** Hash identity of a raw namespace (the registration scope). */
function namespaceIdentity(scope: RegistrationScope): string {
  return `${scope.environmentId ?? ''}\u0000${scope.name}`;
}

/** Hash identity and sort key of a raw tool. */
function toolIdentity(c: ToolNameCandidate): string {
  return `${c.scope.environmentId ?? ''}\u0000${c.scope.name}\u0000${c.tool}`;
}

/**
 * Exact-equality key for a raw namespace. Unlike the hash identity it keeps a thread-wide
 * registration (`null`) distinct from an environment whose id is the empty string.
 */
function scopeDistinctKey(scope: RegistrationScope): string {
  return scope.environmentId === null
    ? `t\u0000${scope.name}`
    : `e${scope.environmentId}\u0000${scope.name}`;
}

interface Entry {
  readonly key: string;
  readonly scope: RegistrationScope;
  /** `scopeDistinctKey(scope)`, computed once per registration. */
  readonly scopeKey: string;
  readonly identity: string;
  namespace: string;
  name: string;
  assigned: string;
}

/** Groups entries by `keyOf`; calls `apply` on every entry of a group holding >1 distinct `rawOf`. */
function disambiguate(
  entries: readonly Entry[],
  keyOf: (e: Entry) => string,
  rawOf: (e: Entry) => string,
  apply: (e: Entry) => void,
): void {
  const groups = new Map<string, Set<string>>();
  for (const e of entries) {
    const k = keyOf(e);
    let raws = groups.get(k);
    if (raws === undefined) {
      raws = new Set();
      groups.set(k, raws);
    }
    raws.add(rawOf(e));
  }
  for (const e of entries) {
    if ((groups.get(keyOf(e))?.size ?? 0) > 1) apply(e);
  }
}

/** The hashed fallback form of a flattened name, always exactly within the length limit. */
function hashedName(namespace: string, name: string, hash: string): string {
  const room = MAX_TOOL_NAME_LENGTH - namespace.length - SEPARATOR.length - HASH_SUFFIX_LENGTH;
  if (room >= 0) return `${namespace}${SEPARATOR}${name.slice(0, room)}_${hash}`;
  const nsRoom = MAX_TOOL_NAME_LENGTH - SEPARATOR.length - HASH_HEX_LENGTH;
  return `${namespace.slice(0, nsRoom)}${SEPARATOR}${hash}`;
}

/**
 * Returns model-visible names, one per candidate, in the same order as the input. Deterministic:
 * the result depends only on the SET of candidates, not their order. Exact duplicates (same scope
 * and tool) receive the same name; distinct candidates always receive distinct names.
 */
export function assignModelToolNames(candidates: readonly ToolNameCandidate[]): string[] {
  // Per-registration strings, computed once per scope object rather than once per tool (an
  // inventory passes the same scope object for all tools of a server; 10,000 tools → 200 scopes).
  const scopes = new Map<RegistrationScope, { distinct: string; namespace: string }>();
  const scopeFacts = (scope: RegistrationScope) => {
    let facts = scopes.get(scope);
    if (facts === undefined) {
      // Step A (namespace part): sanitize the raw namespace.
      facts = {
        distinct: scopeDistinctKey(scope),
        namespace: sanitizeNamePart(rawNamespace(scope)),
      };
      scopes.set(scope, facts);
    }
    return facts;
  };
  // Exact duplicates share one entry (and therefore one name).
  const byKey = new Map<string, Entry>();
  const perCandidate = candidates.map((c) => {
    const facts = scopeFacts(c.scope);
    // Exact-equality key of a raw tool: its scope's distinct key and the raw tool name.
    const key = `${facts.distinct}\u0000${c.tool}`;
    let entry = byKey.get(key);
    if (entry === undefined) {
      entry = {
        key,
        scope: c.scope,
        scopeKey: facts.distinct,
        identity: toolIdentity(c),
        // Step A: sanitize namespace and tool name.
        namespace: facts.namespace,
        name: sanitizeNamePart(c.tool),
        assigned: '',
      };
      byKey.set(key, entry);
    }
    return entry;
  });
  const entries = [...byKey.values()];

  // Step B: distinct raw namespaces sharing a sanitized namespace all get the namespace hash.
  disambiguate(
    entries,
    (e) => e.namespace,
    (e) => e.scopeKey,
    (e) => {
      e.namespace = `${e.namespace}_${hash12(namespaceIdentity(e.scope))}`;
    },
  );

  // Step C: distinct raw tools sharing a (namespace, name) all get the tool hash.
  disambiguate(
    entries,
    (e) => `${e.namespace}\u0000${e.name}`,
    (e) => e.key,
    (e) => {
      e.name = `${e.name}_${hash12(e.identity)}`;
    },
  );

  // Step D: in raw-identity order, enforce the length limit and uniqueness.
  entries.sort((a, b) => {
    if (a.identity !== b.identity) return a.identity < b.identity ? -1 : 1;
    // Equal identities only arise from a null vs '' environment id; the distinct key breaks the tie.
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
  const used = new Set<string>();
  for (const e of entries) {
    let result = `${e.namespace}${SEPARATOR}${e.name}`;
    if (result.length > MAX_TOOL_NAME_LENGTH || used.has(result)) {
      result = hashedName(e.namespace, e.name, hash12(e.identity));
      for (let attempt = 1; used.has(result); attempt++) {
        result = hashedName(e.namespace, e.name, hash12(`${e.identity}\u0000${attempt}`));
      }
    }
    used.add(result);
    e.assigned = result;
  }

  return perCandidate.map((e) => e.assigned);
}
