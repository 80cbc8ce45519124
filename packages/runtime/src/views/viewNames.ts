/**
 * Model-visible names of a view's tools (docs/tool-shaping.md, "Names"). Three modes:
 *
 * - default (no `tool_prefix`): the runtime's names (`assignModelToolNames`) without `mcp__`,
 *   what `mcprt serve` has always listed;
 * - `always`: `<environment>__<server>__<tool>` (thread-wide: `<server>__<tool>`). Each name is a
 *   function of its own tool alone, so adding an environment, a server or a tool renames nothing.
 *   A part that is not clean (characters outside `[A-Za-z0-9-]` and single `_`, a leading or
 *   trailing `_`, or `__` inside) or a name over 64 characters takes the hashed form
 *   `<sanitized prefix>___<16 hex digits of its identity>`: a clean name never holds `___`, so
 *   hashed and clean names never meet;
 * - `conditional`: the shortest name unique in the view: `<tool>`, else `<server>__<tool>`, else
 *   the `always` name (a name that meets another at a level moves both up one).
 *
 * Renames (`[views.X.tools."env/server/tool"] name`) are taken as written; a generated name equal
 * to a rename or to a meta-tool name (while tool search is on) moves on (conditional: next
 * level; otherwise the hashed form). Names are `[A-Za-z0-9_-]`, at most 64 characters,
 * deterministic (a function of the set of tools), and unique. Pure logic.
 */

import { createHash } from 'node:crypto';

import type { ToolPrefixMode } from '../config/viewTypes.js';
import type { RegistrationScope } from '../scope.js';

export const MAX_NAME_LENGTH = 64;
const CLEAN_PART = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const HASH_HEX = 16;
const HASH_MARK = '___';

export interface NamedTool {
  readonly scope: RegistrationScope;
  /** The raw MCP tool name. */
  readonly tool: string;
  /** The runtime's model-visible name (`mcp__…`), for the default mode. */
  readonly modelName: string;
  /** The view's rename of this tool, if any. */
  readonly rename: string | null;
}

/** The `always` name of one tool: a function of its scope and raw name only. */
export function alwaysName(scope: RegistrationScope, tool: string): string {
  const parts = partsOf(scope, tool);
  const plain = parts.join('__');
  if (plain.length <= MAX_NAME_LENGTH && parts.every((p) => CLEAN_PART.test(p))) return plain;
  return hashedName(scope, tool);
}

/** The hashed form of a tool's name: unique by its identity, never a clean name. */
export function hashedName(scope: RegistrationScope, tool: string): string {
  const identity = JSON.stringify([scope.environmentId, scope.name, tool]);
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, HASH_HEX);
  const sanitized = partsOf(scope, tool)
    .map((p) => p.replace(/[^A-Za-z0-9-]/g, '_'))
    .join('__');
  return `${sanitized.slice(0, MAX_NAME_LENGTH - HASH_MARK.length - HASH_HEX)}${HASH_MARK}${hash}`;
}

function partsOf(scope: RegistrationScope, tool: string): string[] {
  return scope.environmentId === null
    ? [scope.name, tool]
    : [scope.environmentId, scope.name, tool];
}

/** The runtime's model-visible name without its `mcp__` prefix (the gateway's default names). */
export function defaultName(modelName: string): string {
  return modelName.startsWith('mcp__') ? modelName.slice('mcp__'.length) : modelName;
}

/**
 * Names for `tools` (in input order). `reserved`: names no generated name may take (the
 * meta-tools' while tool search is on); renames are reserved too.
 */
export function assignViewNames(
  tools: readonly NamedTool[],
  mode: ToolPrefixMode | null,
  reserved: ReadonlySet<string> = new Set(),
): string[] {
  const taken = new Set(reserved);
  for (const t of tools) if (t.rename !== null) taken.add(t.rename);
  const names =
    mode === 'conditional'
      ? conditionalNames(tools, taken)
      : tools.map((t) => {
          if (t.rename !== null) return t.rename;
          const name = mode === 'always' ? alwaysName(t.scope, t.tool) : defaultName(t.modelName);
          return taken.has(name) ? hashedName(t.scope, t.tool) : name;
        });
  return uniqueInOrder(tools, names);
}

/** Candidates by level: `<tool>`, `<server>__<tool>`, then the `always` name. */
function levelsOf(t: NamedTool): string[] {
  const levels: string[] = [];
  if (CLEAN_PART.test(t.tool) && t.tool.length <= MAX_NAME_LENGTH) {
    levels.push(t.tool);
    const withServer = `${t.scope.name}__${t.tool}`;
    if (CLEAN_PART.test(t.scope.name) && withServer.length <= MAX_NAME_LENGTH) {
      levels.push(withServer);
    }
  }
  const full = alwaysName(t.scope, t.tool);
  if (levels.at(-1) !== full) levels.push(full);
  return levels;
}

function conditionalNames(tools: readonly NamedTool[], reserved: ReadonlySet<string>): string[] {
  const levels = tools.map(levelsOf);
  const at = tools.map(() => 0);
  for (;;) {
    const count = new Map<string, number>();
    tools.forEach((t, i) => {
      if (t.rename !== null) return;
      const name = levels[i]![at[i]!]!;
      count.set(name, (count.get(name) ?? 0) + 1);
    });
    let moved = false;
    tools.forEach((t, i) => {
      if (t.rename !== null) return;
      const name = levels[i]![at[i]!]!;
      const clash = count.get(name)! > 1 || reserved.has(name);
      if (clash && at[i]! < levels[i]!.length - 1) {
        at[i]! += 1;
        moved = true;
      }
    });
    if (!moved) break;
  }
  return tools.map((t, i) => {
    if (t.rename !== null) return t.rename;
    const name = levels[i]![at[i]!]!;
    // Only a top-level name can still meet a reserved one: it takes its hashed form.
    return reserved.has(name) ? hashedName(t.scope, t.tool) : name;
  });
}

/**
 * The last resort, for what the rules make all but impossible (two hashes alike, a rename of
 * the hashed form): later tools in identity order get `_2`, `_3`… so names stay unique.
 */
function uniqueInOrder(tools: readonly NamedTool[], names: string[]): string[] {
  const holders = new Map<string, number[]>();
  names.forEach((n, i) => holders.set(n, [...(holders.get(n) ?? []), i]));
  const used = new Set(names);
  for (const [name, indexes] of holders) {
    if (indexes.length < 2) continue;
    const ordered = indexes
      .map((i) => ({
        i,
        key: JSON.stringify([tools[i]!.scope.environmentId, tools[i]!.scope.name, tools[i]!.tool]),
      }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { i } of ordered.slice(1)) {
      let n = 2;
      let candidate: string;
      do {
        const suffix = `_${n++}`;
        candidate = `${name.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
      } while (used.has(candidate));
      used.add(candidate);
      names[i] = candidate;
    }
  }
  return names;
}
