/**
 * Comment-preserving edits of `config.toml` for `mcprt mcp add|remove`: appends a server table or
 * deletes exactly a server's table blocks, leaving every other byte as it was. Each edit is
 * re-parsed and checked before it is written atomically (temp file + rename, mode preserved).
 */

import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { realPathIfAny, writeFileAtomicSync } from '@mcprt/base';
import { stringify } from 'smol-toml';

import { ConfigParseError, ConfigWriteError } from '../errors.js';
import type { RegistrationScope } from '../scope.js';
import type { Table } from './fields.js';
import { isTable } from './fields.js';
import { loadConfig, parseToml } from './load.js';
import { invalidServerNameProblem, SERVER_NAME_PATTERN } from './server.js';
import type { TomlScan } from './locate.js';
import { hasPrefix, scanToml } from './locate.js';

export interface AddServerOptions {
  readonly scope: RegistrationScope;
  /** The server's TOML keys, e.g. `{ command: 'node', args: ['x'], env: { K: 'V' } }`. */
  readonly table: Readonly<Record<string, unknown>>;
}

/** Mode of files this module creates. */
const NEW_FILE_MODE = 0o600;

function serverPath(scope: RegistrationScope): string[] {
  return scope.environmentId === null
    ? ['mcp_servers', scope.name]
    : ['environments', scope.environmentId, 'mcp_servers', scope.name];
}

function getIn(doc: Table, path: readonly string[]): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (!isTable(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Order-insensitive text form of a parsed value; empty tables are dropped (implicit parents). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Date) {
    let text: string;
    try {
      text = value.toISOString();
    } catch {
      text = String(value);
    }
    return `D${JSON.stringify(text)}`;
  }
  if (isTable(value)) {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const item = value[key];
      if (isTable(item) && canonical(item) === '{}') continue;
      parts.push(`${JSON.stringify(key)}:${canonical(item)}`);
    }
    return `{${parts.join(',')}}`;
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  return `${typeof value}:${String(value)}`;
}

/** A copy of `doc` without the value at `path`. */
function without(doc: Table, path: readonly string[]): Table {
  const [head, ...rest] = path;
  if (head === undefined) return doc;
  const copy: Table = {};
  for (const [key, item] of Object.entries(doc)) {
    if (key !== head) Object.defineProperty(copy, key, { value: item, enumerable: true });
    else if (rest.length > 0 && isTable(item)) {
      Object.defineProperty(copy, key, { value: without(item, rest), enumerable: true });
    }
  }
  return copy;
}

function scopeSuffix(scope: RegistrationScope): string {
  return scope.environmentId === null ? '' : ` in environment \`${scope.environmentId}\``;
}

interface ExistingFile {
  /** Path actually written (symlinks resolved). */
  readonly target: string;
  /** Current text, or null when the file does not exist. */
  readonly text: string | null;
  readonly mode: number;
}

function readExisting(file: string): ExistingFile {
  // A missing file (or a dangling link) is written at `file`.
  const target = realPathIfAny(file) ?? file;
  try {
    const text = readFileSync(target, 'utf8');
    return { target, text, mode: statSync(target).mode & 0o7777 };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { target, text: null, mode: NEW_FILE_MODE };
    }
    throw new ConfigWriteError(file, `cannot read ${file}: ${errorText(err)}`, { cause: err });
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function currentText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Writes atomically (temp file + rename, mode preserved); refuses if the file changed. */
function writeAtomic(file: string, existing: ExistingFile, text: string): void {
  try {
    mkdirSync(dirname(existing.target), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(existing.target, text, {
      mode: existing.mode,
      beforeRename: () => {
        if (currentText(existing.target) !== existing.text) {
          throw new ConfigWriteError(file, `${file} changed while it was being edited; try again`);
        }
      },
    });
  } catch (err) {
    if (err instanceof ConfigWriteError) throw err;
    throw new ConfigWriteError(file, `cannot write ${file}: ${errorText(err)}`, { cause: err });
  }
}

function reparse(file: string, text: string, action: string): Table {
  try {
    return parseToml(file, text);
  } catch (err) {
    if (err instanceof ConfigParseError) {
      throw new ConfigWriteError(
        file,
        `${file}: cannot ${action} safely: the result would not be valid TOML (${err.message}); edit the file by hand`,
        { cause: err },
      );
    }
    throw err;
  }
}

/**
 * Appends `[mcp_servers.<name>]` (or `[environments.<id>.mcp_servers.<name>]`) to the file,
 * creating it (mode 0600) and its directory if missing. Refuses an existing scope, an unknown
 * environment, an invalid name, and a table the loader would reject. Returns the new text.
 */
export function addServerToFile(file: string, options: AddServerOptions): string {
  const path = resolve(file);
  const { scope, table } = options;
  if (!SERVER_NAME_PATTERN.test(scope.name)) {
    throw new ConfigWriteError(path, invalidServerNameProblem(scope.name));
  }
  const existing = readExisting(path);
  const text = existing.text ?? '';
  const doc = parseToml(path, text);
  if (scope.environmentId !== null && !isTable(getIn(doc, ['environments', scope.environmentId]))) {
    throw new ConfigWriteError(path, `unknown environment id \`${scope.environmentId}\``);
  }
  const keys = serverPath(scope);
  if (getIn(doc, keys) !== undefined) {
    throw new ConfigWriteError(
      path,
      `MCP server \`${scope.name}\` already exists${scopeSuffix(scope)}`,
    );
  }

  let nested: Table = { ...table };
  for (const key of [...keys].reverse()) nested = Object.fromEntries([[key, nested]]);
  let block: string;
  try {
    block = stringify(nested);
  } catch (err) {
    throw new ConfigWriteError(
      path,
      `cannot write MCP server \`${scope.name}\`: ${errorText(err)}`,
      {
        cause: err,
      },
    );
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let prefix = text;
  if (prefix !== '' && !prefix.endsWith('\n')) prefix += eol;
  if (prefix !== '' && !prefix.endsWith(`${eol}${eol}`)) prefix += eol;
  const next = prefix + (eol === '\n' ? block : block.replace(/\n/g, eol));

  const action = `add MCP server \`${scope.name}\`${scopeSuffix(scope)}`;
  const nextDoc = reparse(path, next, action);
  const intended = getIn(parseToml(path, block), keys);
  if (
    canonical(getIn(nextDoc, keys)) !== canonical(intended) ||
    canonical(without(nextDoc, keys)) !== canonical(doc)
  ) {
    throw new ConfigWriteError(
      path,
      `${path}: cannot ${action} safely: the appended table would merge with existing definitions; edit the file by hand`,
    );
  }
  const loaded = loadConfig({ file: path, text: next, mode: 'codex' });
  const invalid = loaded.invalidServers.find(
    (s) => s.scope.environmentId === scope.environmentId && s.scope.name === scope.name,
  );
  if (invalid !== undefined) {
    const problems = invalid.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.location.keyPath}: ${d.problem}`);
    throw new ConfigWriteError(
      path,
      `invalid MCP server \`${scope.name}\`: ${problems.join('; ')}`,
    );
  }
  writeAtomic(path, existing, next);
  return next;
}

/**
 * Deletes the server's `[…<name>]` and `[…<name>.*]` table blocks, leaving every other byte
 * unchanged (comment lines directly above the following header stay with that header). Refuses
 * servers written as inline tables or dotted keys. Returns the new text.
 */
export function removeServerFromFile(file: string, scope: RegistrationScope): string {
  const path = resolve(file);
  const notFound = (): ConfigWriteError =>
    new ConfigWriteError(
      path,
      scope.environmentId === null
        ? `No MCP server named '${scope.name}' found.`
        : `No MCP server named '${scope.name}' found in environment \`${scope.environmentId}\`.`,
    );
  const existing = readExisting(path);
  if (existing.text === null) throw notFound();
  const text = existing.text;
  const doc = parseToml(path, text);
  const keys = serverPath(scope);
  if (getIn(doc, keys) === undefined) throw notFound();

  let scan: TomlScan;
  try {
    scan = scanToml(text);
  } catch (err) {
    throw new ConfigWriteError(
      path,
      `${path}: cannot locate MCP server \`${scope.name}\`${scopeSuffix(scope)} in the file to edit it safely (${errorText(err)}); edit the file by hand`,
      { cause: err },
    );
  }
  const lineCount = scan.lineStarts.length;
  const lineStart = (line: number): number =>
    line > lineCount ? text.length : (scan.lineStarts[line - 1] ?? text.length);
  const isCommentLine = (line: number): boolean => {
    const start = lineStart(line);
    const end = line >= lineCount ? text.length : lineStart(line + 1);
    const first = text.slice(start, end).search(/[^ \t]/);
    return first >= 0 && scan.commentOffsets.has(start + first);
  };

  const headers = scan.entries.filter((e) => e.kind !== 'key');
  const ranges: { start: number; end: number; blockEnd: number }[] = [];
  headers.forEach((header, index) => {
    if (!hasPrefix(header.path, keys)) return;
    const following = headers[index + 1];
    const blockEndLine = following === undefined ? lineCount + 1 : following.line;
    let endLine = blockEndLine;
    if (following !== undefined && !hasPrefix(following.path, keys)) {
      while (endLine - 1 > header.line && isCommentLine(endLine - 1)) endLine--;
    }
    ranges.push({
      start: lineStart(header.line),
      end: lineStart(endLine),
      blockEnd: lineStart(blockEndLine),
    });
  });

  const unsafe = scan.entries.find(
    (e) =>
      e.kind === 'key' &&
      hasPrefix(e.path, keys) &&
      !ranges.some((r) => e.offset >= r.start && e.offset < r.blockEnd),
  );
  if (unsafe !== undefined || ranges.length === 0) {
    const at = unsafe ?? scan.entries.find((e) => hasPrefix(e.path, keys));
    const where = at === undefined ? path : `${path}:${at.line}:${at.column}`;
    throw new ConfigWriteError(
      path,
      `${where}: MCP server \`${scope.name}\`${scopeSuffix(scope)} is defined as an inline table or with dotted keys, which mcprt cannot edit safely; edit the file by hand`,
    );
  }

  let next = '';
  let cursor = 0;
  for (const range of ranges) {
    next += text.slice(cursor, range.start);
    cursor = range.end;
  }
  if (cursor >= text.length) {
    // The removed block ended the file: drop the blank line that separated it.
    if (next.endsWith('\r\n\r\n')) next = next.slice(0, -2);
    else if (next.endsWith('\n\n')) next = next.slice(0, -1);
  }
  next += text.slice(cursor);

  const action = `remove MCP server \`${scope.name}\`${scopeSuffix(scope)}`;
  const nextDoc = reparse(path, next, action);
  if (canonical(nextDoc) !== canonical(without(doc, keys))) {
    throw new ConfigWriteError(
      path,
      `${path}: cannot ${action} safely: the edit would change other settings; edit the file by hand`,
    );
  }
  writeAtomic(path, existing, next);
  return next;
}
