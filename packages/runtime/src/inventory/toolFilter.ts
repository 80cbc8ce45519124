/**
 * `enabled_tools` / `disabled_tools`: both match raw MCP tool names; the allow-list applies
 * first, the deny-list after it (Codex's order). An entry with `*` or `?` is a glob
 * (config/glob.ts); any other entry is an exact name, as in Codex. Pure logic.
 *
 * The inventory is rebuilt over every tool of every server on each change, so each list is
 * compiled once (a Set of exact names plus the compiled globs), cached per list object: a
 * registration's config keeps its arrays across rebuilds.
 */

import { compileGlob, isGlobPattern } from '../config/glob.js';

export interface ToolPolicy {
  readonly enabledTools: readonly string[] | null;
  readonly disabledTools: readonly string[] | null;
}

/** One compiled list: which entry (exact name or glob) matches a tool first. */
interface ToolList {
  readonly exact: ReadonlySet<string>;
  readonly globs: readonly { readonly pattern: string; readonly test: (s: string) => boolean }[];
}

const compiled = new WeakMap<readonly string[], ToolList>();

function compileList(list: readonly string[]): ToolList {
  let out = compiled.get(list);
  if (out === undefined) {
    const exact = new Set<string>();
    const globs: { pattern: string; test: (s: string) => boolean }[] = [];
    for (const entry of list) {
      if (isGlobPattern(entry)) globs.push({ pattern: entry, test: compileGlob(entry) });
      else exact.add(entry);
    }
    out = { exact, globs };
    compiled.set(list, out);
  }
  return out;
}

/** Which entry of `list` matches `tool` (exact names first; `pattern` null for one), or null. */
function matchIn(list: readonly string[], tool: string): { pattern: string | null } | null {
  const { exact, globs } = compileList(list);
  if (exact.has(tool)) return { pattern: null };
  for (const glob of globs) if (glob.test(tool)) return { pattern: glob.pattern };
  return null;
}

export function isToolEnabled(policy: ToolPolicy, tool: string): boolean {
  if (policy.enabledTools !== null && matchIn(policy.enabledTools, tool) === null) return false;
  return !(policy.disabledTools !== null && matchIn(policy.disabledTools, tool) !== null);
}

/**
 * Why `tool` is filtered out, naming the list or pattern (``disabled_tools pattern `delete_*` ``,
 * ``not in enabled_tools``, ``listed in disabled_tools``), or null when it is enabled.
 */
export function toolFilterReason(policy: ToolPolicy, tool: string): string | null {
  if (policy.enabledTools !== null && matchIn(policy.enabledTools, tool) === null) {
    return 'not in enabled_tools';
  }
  if (policy.disabledTools === null) return null;
  const match = matchIn(policy.disabledTools, tool);
  if (match === null) return null;
  return match.pattern === null
    ? 'listed in disabled_tools'
    : `disabled_tools pattern \`${match.pattern}\``;
}
