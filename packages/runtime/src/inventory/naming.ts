/**
 * Model-visible tool names. Owns the mapping from (registration scope, raw MCP tool name) to the
 * flattened `namespace__tool` name the model sees. This is the one place that must guarantee those
 * names are valid (`[A-Za-z0-9_]{1,64}`), unique, and stable. It follows Codex's normalize step
 * (codex-behaviour.md §3.3), with an environment-qualified namespace added so that same-named
 * servers in different environments never collide. Pure logic: no I/O, no runtime state.
 *
 * The rules (`namingRules.ts`):
 *   A. sanitize the namespace `mcp__[<environment>__]<server>` and the tool name;
 *   B. distinct registrations sharing a sanitized namespace all get the namespace hash;
 *   C. distinct raw tools sharing a (namespace, name) all get the tool hash;
 *   D. in raw-identity order, a name too long or already used takes its hashed form.
 * Names are assigned directly, in one pass over the tools (ADR 0029), whenever that is provably
 * the same as applying the rules to every distinct tool: no two distinct tools get one flattened
 * name — then step C changes nothing, and step D keeps every name but the too-long ones, which it
 * hashes in raw-identity order among themselves — and no hashed form is another tool's flattened
 * name. Otherwise `namingGeneral.ts` applies every step to every distinct tool.
 */

import type { RegistrationScope } from '../scope.js';
import { assignNamesGenerally } from './namingGeneral.js';
import {
  compareRawOrder,
  distinctScopeKey,
  firstFreeHashedName,
  hash12,
  MAX_TOOL_NAME_LENGTH,
  namespaceIdentity,
  rawOrder,
  type RawOrder,
  sanitizedNamespace,
  sanitizeNamePart,
  SEPARATOR,
} from './namingRules.js';

export { MAX_TOOL_NAME_LENGTH, sanitizeNamePart };

export interface ToolNameCandidate {
  readonly scope: RegistrationScope;
  /** Raw MCP tool name, exactly as the server listed it. */
  readonly tool: string;
}

/** The tools of one registration, as an inventory holds them (`name` is the raw MCP name). */
export interface ToolNameSource {
  readonly scope: RegistrationScope;
  readonly tools: readonly { readonly name: string }[];
}

/** Clean names keep their spelling (most names; a regular expression test is cheap). */
const UNSAFE_CHAR = /[^A-Za-z0-9_]/;

/** Steps A and B per source (indexed like the sources; unset for a source without tools). */
interface SourceNamespaces {
  readonly namespace: string[];
  readonly distinct: string[];
  /**
   * Namespaces where two distinct tools could get one flattened name whatever their names: one
   * held by several registrations, or continuing another with `_` (`mcp__a` + `b__c` and
   * `mcp__a__b` + `c`). Elsewhere only a name sanitizing changed can collide.
   */
  readonly crowded: Set<string>;
}

function sourceNamespaces(sources: readonly ToolNameSource[]): SourceNamespaces {
  const namespace = new Array<string>(sources.length);
  const distinct = new Array<string>(sources.length);
  const byDistinct = new Map<string, { scope: RegistrationScope; namespace: string }>();
  const holders = new Map<string, string[]>(); // sanitized namespace → distinct keys holding it
  for (let s = 0; s < sources.length; s++) {
    const { scope, tools } = sources[s]!;
    if (tools.length === 0) continue;
    const key = distinctScopeKey(scope);
    distinct[s] = key;
    if (byDistinct.has(key)) continue;
    const sanitized = sanitizedNamespace(scope);
    byDistinct.set(key, { scope, namespace: sanitized });
    const same = holders.get(sanitized);
    if (same === undefined) holders.set(sanitized, [key]);
    else same.push(key);
  }
  const final = new Map<string, number>(); // namespace after step B → registrations holding it
  for (const [sanitized, same] of holders) {
    for (const key of same) {
      const facts = byDistinct.get(key)!;
      if (same.length > 1) {
        facts.namespace = `${sanitized}_${hash12(namespaceIdentity(facts.scope))}`;
      }
      final.set(facts.namespace, (final.get(facts.namespace) ?? 0) + 1);
    }
  }
  const crowded = new Set<string>();
  for (const [ns, count] of final) {
    if (count > 1) crowded.add(ns);
    for (let at = ns.indexOf('_'); at >= 0; at = ns.indexOf('_', at + 1)) {
      const prefix = ns.slice(0, at);
      if (final.has(prefix)) crowded.add(ns).add(prefix);
    }
  }
  for (let s = 0; s < sources.length; s++) {
    const key = distinct[s];
    if (key !== undefined) namespace[s] = byDistinct.get(key)!.namespace;
  }
  return { namespace, distinct, crowded };
}

/**
 * Whether two distinct tools (not exact duplicates) got one flattened name. Only the names in
 * `suspect` namespaces can: elsewhere a namespace belongs to one registration, no other namespace
 * continues it with `_`, and its names are the raw names (distinct unless duplicates).
 */
function distinctToolsCollide(
  sources: readonly ToolNameSource[],
  facts: SourceNamespaces,
  names: readonly string[],
  suspect: ReadonlySet<string>,
): boolean {
  const holder = new Map<string, string>(); // flattened name → raw tool key
  let at = 0;
  for (let s = 0; s < sources.length; s++) {
    const { tools } = sources[s]!;
    if (tools.length === 0 || !suspect.has(facts.namespace[s]!)) {
      at += tools.length;
      continue;
    }
    for (let i = 0; i < tools.length; i++, at++) {
      const key = `${facts.distinct[s]!}\u0000${tools[i]!.name}`;
      const prior = holder.get(names[at]!);
      if (prior === undefined) holder.set(names[at]!, key);
      else if (prior !== key) return true;
    }
  }
  return false;
}

interface TooLong extends RawOrder {
  readonly at: number;
  readonly namespace: string;
  readonly name: string;
}

/**
 * Step D for the too-long names, in raw-identity order among themselves (every other name is kept
 * whatever its place in that order; exact duplicates share one). False if a hashed form is another
 * tool's flattened name: it would take that name if it sorted first, so the general assignment
 * decides.
 */
function hashTooLong(names: string[], tooLong: TooLong[]): boolean {
  tooLong.sort(compareRawOrder);
  const flattened = new Set(names);
  const used = new Set<string>();
  let previous: TooLong | undefined;
  for (const t of tooLong) {
    if (previous?.key === t.key) {
      names[t.at] = names[previous.at]!;
      continue;
    }
    const result = firstFreeHashedName(t.namespace, t.name, t.identity, (form) =>
      flattened.has(form) ? null : used.has(form),
    );
    if (result === null) return false;
    used.add(result);
    names[t.at] = result;
    previous = t;
  }
  return true;
}

/**
 * Model-visible names for every tool of every source, in source order (the inventory's form of
 * `assignModelToolNames`: the same names for the same tools).
 */
export function assignModelToolNamesBySource(sources: readonly ToolNameSource[]): string[] {
  const facts = sourceNamespaces(sources);
  const suspect = new Set(facts.crowded);
  let total = 0;
  for (let s = 0; s < sources.length; s++) total += sources[s]!.tools.length;
  const names = new Array<string>(total);
  let tooLong: TooLong[] | undefined;
  let at = 0;
  // Indexed loops: this runs once per tool, usually in code V8 has not compiled yet.
  for (let s = 0; s < sources.length; s++) {
    const { scope, tools } = sources[s]!;
    if (tools.length === 0) continue;
    const namespace = facts.namespace[s]!;
    const prefix = namespace + SEPARATOR;
    for (let i = 0; i < tools.length; i++, at++) {
      const tool = tools[i]!.name;
      let name = tool;
      if (tool.length === 0 || UNSAFE_CHAR.test(tool)) {
        name = sanitizeNamePart(tool);
        suspect.add(namespace);
      }
      const flat = prefix + name;
      names[at] = flat;
      if (flat.length > MAX_TOOL_NAME_LENGTH) {
        (tooLong ??= []).push({ at, namespace, name, ...rawOrder(scope, tool) });
      }
    }
  }
  if (suspect.size > 0 && distinctToolsCollide(sources, facts, names, suspect)) {
    return assignNamesGenerally(sources);
  }
  if (tooLong !== undefined && !hashTooLong(names, tooLong)) return assignNamesGenerally(sources);
  return names;
}

/**
 * Returns model-visible names, one per candidate, in the same order as the input. Deterministic:
 * the result depends only on the SET of candidates, not their order. Exact duplicates (same scope
 * and tool) receive the same name; distinct candidates always receive distinct names.
 */
export function assignModelToolNames(candidates: readonly ToolNameCandidate[]): string[] {
  // Consecutive candidates of one scope object form a source.
  const sources: { scope: RegistrationScope; tools: { name: string }[] }[] = [];
  let current: (typeof sources)[number] | undefined;
  for (const { scope, tool } of candidates) {
    if (current?.scope !== scope) {
      current = { scope, tools: [] };
      sources.push(current);
    }
    current.tools.push({ name: tool });
  }
  return assignModelToolNamesBySource(sources);
}
