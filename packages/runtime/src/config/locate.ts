/**
 * Source positions in a TOML document: where a dotted key path is written (1-based line:column)
 * so diagnostics can point at it, and the table headers, keys and comments the
 * comment-preserving editor needs. The positions come from `toml-eslint-parser`'s syntax tree
 * (every key, table and comment with its range); the values come from smol-toml, which has
 * parsed the text already (docs/adr/0016-toml-positions.md).
 */

import { parseTOML } from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';

/** A 1-based position in the source text. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** One place where a key path is written. */
export interface TomlEntry {
  /** `table`: `[a.b]`; `arrayTable`: `[[a.b]]`; `key`: one segment of a `key = value` key. */
  readonly kind: 'table' | 'arrayTable' | 'key';
  /** Full key path from the document root (for keys: table path + key segments so far). */
  readonly path: readonly string[];
  /** Offset of the `[` of a header, or of the first character of the key segment. */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** True for keys written inside an inline table `{ … }`. */
  readonly inline: boolean;
}

export interface TomlScan {
  /** Headers and key segments in file order. Keys inside arrays are not listed. */
  readonly entries: readonly TomlEntry[];
  /** Offsets where a comment (`#`) starts. */
  readonly commentOffsets: ReadonlySet<number>;
  /** Offset of the first character of each line (line n starts at `lineStarts[n - 1]`). */
  readonly lineStarts: readonly number[];
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) starts.push(i + 1);
  }
  return starts;
}

/** Converts an offset to a 1-based line and column using precomputed line starts. */
export function positionAt(lineStarts: readonly number[], offset: number): SourcePosition {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
}

const keyName = (key: AST.TOMLBare | AST.TOMLQuoted): string =>
  key.type === 'TOMLBare' ? key.name : key.value;

/**
 * Scans the document once: headers, key segments and comments with their positions. Throws when
 * the text is not TOML (callers scan only text smol-toml has accepted).
 */
export function scanToml(text: string): TomlScan {
  // A byte-order mark is allowed (smol-toml skips it) but not part of the syntax tree.
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const ast = parseTOML(bom ? text.slice(1) : text, { tomlVersion: '1.1' });
  const lineStarts = computeLineStarts(text);
  const entries: TomlEntry[] = [];
  const push = (kind: TomlEntry['kind'], path: string[], offset: number, inline: boolean) => {
    const pos = positionAt(lineStarts, offset + bom);
    entries.push({ kind, path, offset: offset + bom, line: pos.line, column: pos.column, inline });
  };
  // Keys inside arrays are not addressable by a plain key path: never recorded.
  const keyValue = (kv: AST.TOMLKeyValue, prefix: readonly string[], inline: boolean) => {
    const path = [...prefix];
    for (const segment of kv.key.keys) {
      path.push(keyName(segment));
      push('key', [...path], segment.range[0], inline);
    }
    if (kv.value.type === 'TOMLInlineTable') {
      for (const inner of kv.value.body) keyValue(inner, path, true);
    }
  };
  for (const node of ast.body[0].body) {
    if (node.type === 'TOMLTable') {
      const path = node.key.keys.map(keyName);
      push(node.kind === 'array' ? 'arrayTable' : 'table', path, node.range[0], false);
      for (const kv of node.body) keyValue(kv, path, false);
    } else {
      keyValue(node, [], false);
    }
  }
  return {
    entries,
    commentOffsets: new Set(ast.comments.map((c) => c.range[0] + bom)),
    lineStarts,
  };
}

/** True when `path` starts with every segment of `prefix`. */
export function hasPrefix(path: readonly string[], prefix: readonly string[]): boolean {
  if (path.length < prefix.length) return false;
  return prefix.every((segment, index) => path[index] === segment);
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && hasPrefix(a, b);
}

/** A path into the parsed document; numbers index arrays (positions stop at the array key). */
export type KeyPath = readonly (string | number)[];

/** Finds where a key path is written; see {@link locateKey}. */
export type Locator = (path: KeyPath) => SourcePosition;

/**
 * Returns a locator over `text`. Resolution order: the first place the exact path is written (a
 * header or a key segment); else the first header or key written below it (a table defined only
 * through sub-tables); else the nearest enclosing path that is written; else 1:1.
 */
export function createLocator(text: string): Locator {
  let entries: readonly TomlEntry[];
  try {
    entries = scanToml(text).entries;
  } catch {
    // Not TOML the position scanner reads: every path is reported at 1:1.
    entries = [];
  }
  return (keyPath) => {
    const path: string[] = [];
    for (const segment of keyPath) {
      if (typeof segment === 'number') break;
      path.push(segment);
    }
    if (path.length === 0) return { line: 1, column: 1 };
    const exact = entries.find((e) => samePath(e.path, path));
    if (exact !== undefined) return { line: exact.line, column: exact.column };
    const below = entries.find((e) => hasPrefix(e.path, path));
    if (below !== undefined) return { line: below.line, column: below.column };
    for (let length = path.length - 1; length > 0; length--) {
      const prefix = path.slice(0, length);
      const enclosing = entries.find((e) => samePath(e.path, prefix));
      if (enclosing !== undefined) return { line: enclosing.line, column: enclosing.column };
    }
    return { line: 1, column: 1 };
  };
}

/** One-shot form of {@link createLocator}. */
export function locateKey(text: string, path: KeyPath): SourcePosition {
  return createLocator(text)(path);
}
