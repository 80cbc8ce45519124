/**
 * The general assignment of model-visible names: steps A–D applied over every distinct raw tool,
 * exact duplicates sharing one name. `naming.ts` uses it whenever its direct assignment cannot
 * show that the rules leave every flattened name alone except the too-long ones (two tools want
 * one flattened name, or a hashed form is some other tool's flattened name). The work is still
 * kept to what the rules can change (ADR 0029): namespaces are handled once per registration,
 * names are only regrouped where two can collide, and only the tools contending for a flattened
 * name are sorted into raw-identity order. The result equals applying each step to every tool.
 */

import type { RegistrationScope } from '../scope.js';
import type { ToolNameSource } from './naming.js';
import {
  compareRawOrder,
  distinctScopeKey,
  firstFreeHashedName,
  hash12,
  MAX_TOOL_NAME_LENGTH,
  namespaceIdentity,
  rawOrder,
  sanitizedNamespace,
  sanitizeNamePart,
  SEPARATOR,
} from './namingRules.js';

/** One distinct registration scope among the sources, with its distinct tools. */
interface ScopeGroup {
  readonly scope: RegistrationScope;
  /** Sanitized (step A), then hashed if it collides (step B). */
  namespace: string;
  /** Distinct raw tool names → their entry (exact duplicates share one entry, and one name). */
  readonly byTool: Map<string, Entry>;
  readonly entries: Entry[];
  /** Whether sanitizing changed some tool name (only then can two of its names collide). */
  renamed: boolean;
}

interface Entry {
  readonly group: ScopeGroup;
  readonly tool: string;
  /** Sanitized (step A), then hashed if it collides (step C). */
  name: string;
  assigned: string;
}

function toolIdentity(e: Entry): string {
  return `${namespaceIdentity(e.group.scope)}\u0000${e.tool}`;
}

/** `groups` by their current namespace. */
function byNamespace(groups: readonly ScopeGroup[]): Map<string, ScopeGroup[]> {
  const out = new Map<string, ScopeGroup[]>();
  for (const g of groups) {
    const same = out.get(g.namespace);
    if (same === undefined) out.set(g.namespace, [g]);
    else same.push(g);
  }
  return out;
}

/**
 * Step C over one namespace: distinct raw tools sharing a name all get the tool hash. Every entry
 * is a distinct raw tool, so a name held by more than one entry is a collision.
 */
function hashCollidingNames(groups: readonly ScopeGroup[]): void {
  const byName = new Map<string, Entry[]>();
  for (const g of groups) {
    for (const e of g.entries) {
      const same = byName.get(e.name);
      if (same === undefined) byName.set(e.name, [e]);
      else same.push(e);
    }
  }
  for (const same of byName.values()) {
    if (same.length > 1) for (const e of same) e.name = `${e.name}_${hash12(toolIdentity(e))}`;
  }
}

/**
 * The flattened names (`e.assigned`) that more than one entry holds, or undefined if none. Two
 * flattened names can only be equal if their namespaces are, or if one namespace continues the
 * other with `_` (`mcp__a` + `b__c` and `mcp__a__b` + `c`). Within one namespace of one
 * registration whose names sanitizing left alone, names are the distinct raw names. So only the
 * registrations outside those two cases are compared name by name.
 */
function sharedNames(
  groups: readonly ScopeGroup[],
  namespaces: ReadonlyMap<string, readonly ScopeGroup[]>,
): Set<string> | undefined {
  const suspects = new Set<ScopeGroup>();
  for (const g of groups) {
    if (g.renamed || namespaces.get(g.namespace)!.length > 1) {
      suspects.add(g);
      continue;
    }
    // Some other namespace is a prefix of this one followed by `_`: both are suspects.
    const ns = g.namespace;
    for (let at = ns.indexOf('_'); at >= 0; at = ns.indexOf('_', at + 1)) {
      const prefix = namespaces.get(ns.slice(0, at));
      if (prefix !== undefined) {
        suspects.add(g);
        for (const p of prefix) suspects.add(p);
      }
    }
  }
  const seen = new Set<string>();
  let shared: Set<string> | undefined;
  for (const g of suspects) {
    for (const e of g.entries) {
      const size = seen.size;
      seen.add(e.assigned);
      if (seen.size === size) (shared ??= new Set()).add(e.assigned);
    }
  }
  return shared;
}

/** `entries` in raw-identity order. */
function inRawOrder(entries: readonly Entry[]): Entry[] {
  const ordered = entries.map((e) => ({ e, ...rawOrder(e.group.scope, e.tool) }));
  ordered.sort(compareRawOrder);
  return ordered.map((o) => o.e);
}

/**
 * Step D over `sorted`: each keeps its flattened name unless it is too long or already used, else
 * takes the first free hashed form. Returns false, unfinished, as soon as a hashed form is one
 * that `reserved` says belongs to another entry.
 */
function assignInOrder(sorted: readonly Entry[], reserved: (name: string) => boolean): boolean {
  const used = new Set<string>();
  for (const e of sorted) {
    let result: string | null = e.assigned;
    if (result.length > MAX_TOOL_NAME_LENGTH || used.has(result)) {
      result = firstFreeHashedName(e.group.namespace, e.name, toolIdentity(e), (form) =>
        reserved(form) ? null : used.has(form),
      );
      if (result === null) return false;
    }
    used.add(result);
    e.assigned = result;
  }
  return true;
}

/** Model-visible names for every tool of every source, in source order. */
export function assignNamesGenerally(sources: readonly ToolNameSource[]): string[] {
  // Distinct scopes (several sources, or scope objects, may name one registration).
  const groups: ScopeGroup[] = [];
  const byDistinct = new Map<string, ScopeGroup>();
  const entries: Entry[] = [];
  const perTool: Entry[] = [];
  for (const { scope, tools } of sources) {
    if (tools.length === 0) continue;
    const distinct = distinctScopeKey(scope);
    let group = byDistinct.get(distinct);
    if (group === undefined) {
      // Step A (namespace part).
      group = {
        scope,
        namespace: sanitizedNamespace(scope),
        byTool: new Map(),
        entries: [],
        renamed: false,
      };
      byDistinct.set(distinct, group);
      groups.push(group);
    }
    for (const { name: tool } of tools) {
      let entry = group.byTool.get(tool);
      if (entry === undefined) {
        // Step A: sanitize the tool name.
        const name = sanitizeNamePart(tool);
        if (name !== tool) group.renamed = true;
        entry = { group, tool, name, assigned: '' };
        group.byTool.set(tool, entry);
        group.entries.push(entry);
        entries.push(entry);
      }
      perTool.push(entry);
    }
  }

  // Step B: distinct raw namespaces sharing a sanitized namespace all get the namespace hash.
  for (const same of byNamespace(groups).values()) {
    if (same.length > 1) {
      for (const g of same) g.namespace = `${g.namespace}_${hash12(namespaceIdentity(g.scope))}`;
    }
  }

  // Step C: distinct raw tools sharing a (namespace, name) all get the tool hash. Within one
  // registration, names only collide if sanitizing changed one of them.
  const namespaces = byNamespace(groups);
  for (const same of namespaces.values()) {
    if (same.length > 1 || same[0]!.renamed) hashCollidingNames(same);
  }

  // Step D: in raw-identity order, enforce the length limit and uniqueness. Only the entries
  // contending for a flattened name (too long, or wanted by another) depend on that order.
  for (const e of entries) e.assigned = `${e.group.namespace}${SEPARATOR}${e.name}`;
  const shared = sharedNames(groups, namespaces);
  const contends = (e: Entry) =>
    e.assigned.length > MAX_TOOL_NAME_LENGTH || (shared?.has(e.assigned) ?? false);
  const contenders = entries.filter(contends);
  if (contenders.length > 0) {
    // A hashed form equal to an uncontended flattened name would take it from its holder if it
    // sorted first: then every entry takes part in the ordered assignment.
    const uncontended = new Set(entries.filter((e) => !contends(e)).map((e) => e.assigned));
    if (!assignInOrder(inRawOrder(contenders), (name) => uncontended.has(name))) {
      for (const e of entries) e.assigned = `${e.group.namespace}${SEPARATOR}${e.name}`;
      assignInOrder(inRawOrder(entries), () => false);
    }
  }

  return perTool.map((e) => e.assigned);
}
