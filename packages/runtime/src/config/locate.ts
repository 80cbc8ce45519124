/**
 * Source positions in a TOML document: finds where a dotted key path is written (1-based
 * line:column) so diagnostics can point at it, and lists table headers / keys / comments for the
 * comment-preserving editor. This is a lenient scanner, not a parser: parsing and validation of
 * TOML syntax is smol-toml's job; the text is assumed to have parsed already.
 */

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

const BARE_KEY_CHAR = /[A-Za-z0-9_-]/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

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

interface KeySegment {
  readonly name: string;
  readonly offset: number;
}

class Scanner {
  private i = 0;
  private table: string[] = [];
  readonly entries: TomlEntry[] = [];
  readonly commentOffsets = new Set<number>();
  readonly lineStarts: number[];

  constructor(private readonly s: string) {
    this.lineStarts = computeLineStarts(s);
  }

  run(): void {
    const n = this.s.length;
    while (this.i < n) {
      this.skipBlank(true);
      if (this.i >= n) break;
      const start = this.i;
      if (this.s[this.i] === '[') this.header();
      else this.keyValue(this.table, false, true);
      this.skipToLineEnd();
      if (this.i === start) this.i++;
    }
  }

  private push(kind: TomlEntry['kind'], path: string[], offset: number, inline: boolean): void {
    const pos = positionAt(this.lineStarts, offset);
    this.entries.push({ kind, path, offset, line: pos.line, column: pos.column, inline });
  }

  /** Skips spaces and tabs; with `newlines`, also line breaks and comments. */
  private skipBlank(newlines: boolean): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (newlines && (c === '\n' || c === '\r')) this.i++;
      else if (newlines && c === '#') this.skipComment();
      else break;
    }
  }

  private skipComment(): void {
    this.commentOffsets.add(this.i);
    while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
  }

  /** After a statement: skip the rest of the line (a trailing comment, or junk). */
  private skipToLineEnd(): void {
    const s = this.s;
    while (this.i < s.length && s[this.i] !== '\n') {
      if (s[this.i] === '#') {
        this.skipComment();
        return;
      }
      this.i++;
    }
  }

  private header(): void {
    const open = this.i;
    this.i++;
    let array = false;
    if (this.s[this.i] === '[') {
      array = true;
      this.i++;
    }
    const key = this.key();
    if (key === null) return;
    this.skipBlank(false);
    if (this.s[this.i] !== ']') return;
    this.i++;
    if (array) {
      if (this.s[this.i] !== ']') return;
      this.i++;
    }
    this.table = key.map((k) => k.name);
    this.push(array ? 'arrayTable' : 'table', this.table, open, false);
  }

  /** Parses a (possibly dotted, possibly quoted) key. Returns null when there is none. */
  private key(): KeySegment[] | null {
    const s = this.s;
    const segments: KeySegment[] = [];
    for (;;) {
      this.skipBlank(false);
      const offset = this.i;
      const c = s[this.i];
      let name: string | null;
      if (c === '"') name = this.basicString();
      else if (c === "'") name = this.literalString();
      else {
        while (this.i < s.length && BARE_KEY_CHAR.test(s[this.i] ?? '')) this.i++;
        name = this.i > offset ? s.slice(offset, this.i) : null;
      }
      if (name === null) return segments.length > 0 ? segments : null;
      segments.push({ name, offset });
      this.skipBlank(false);
      if (s[this.i] !== '.') return segments;
      this.i++;
    }
  }

  /** `key = value`; records the key's segments under `prefix` when `record`. */
  private keyValue(prefix: readonly string[], inline: boolean, record: boolean): boolean {
    const key = this.key();
    if (key === null) return false;
    const path = [...prefix];
    for (const segment of key) {
      path.push(segment.name);
      if (record) this.push('key', [...path], segment.offset, inline);
    }
    this.skipBlank(false);
    if (this.s[this.i] !== '=') return false;
    this.i++;
    this.skipBlank(false);
    this.value(path, record);
    return true;
  }

  private value(path: readonly string[], record: boolean): void {
    const s = this.s;
    const c = s[this.i];
    if (c === '"') {
      this.basicString();
    } else if (c === "'") {
      this.literalString();
    } else if (c === '[') {
      this.i++;
      for (;;) {
        this.skipBlank(true);
        if (this.i >= s.length) return;
        const d = s[this.i];
        if (d === ']') {
          this.i++;
          return;
        }
        if (d === ',') {
          this.i++;
          continue;
        }
        const before = this.i;
        // Keys inside arrays are not addressable by a plain key path: never recorded.
        this.value(path, false);
        if (this.i === before) this.i++;
      }
    } else if (c === '{') {
      this.i++;
      for (;;) {
        this.skipBlank(true);
        if (this.i >= s.length) return;
        const d = s[this.i];
        if (d === '}') {
          this.i++;
          return;
        }
        if (d === ',') {
          this.i++;
          continue;
        }
        const before = this.i;
        this.keyValue(path, true, record);
        if (this.i === before) this.i++;
      }
    } else {
      const start = this.i;
      while (this.i < s.length && !/[\s,\]}#]/.test(s[this.i] ?? '')) this.i++;
      // A date-time may be written with a space between date and time.
      if (
        DATE_ONLY.test(s.slice(start, this.i)) &&
        s[this.i] === ' ' &&
        /\d/.test(s[this.i + 1] ?? '')
      ) {
        this.i++;
        while (this.i < s.length && !/[\s,\]}#]/.test(s[this.i] ?? '')) this.i++;
      }
    }
  }

  /** Reads a `"…"` or `"""…"""` string starting at the cursor; returns its (unescaped) value. */
  private basicString(): string {
    const s = this.s;
    if (s.startsWith('"""', this.i)) {
      this.i += 3;
      while (this.i < s.length) {
        if (s[this.i] === '\\') {
          this.i += 2;
        } else if (s.startsWith('"""', this.i)) {
          this.i += 3;
          // Up to two extra quotes may end the content (`""""` / `"""""`).
          for (let k = 0; k < 2 && s[this.i] === '"'; k++) this.i++;
          return '';
        } else {
          this.i++;
        }
      }
      return '';
    }
    this.i++;
    const start = this.i;
    while (this.i < s.length && s[this.i] !== '"' && s[this.i] !== '\n') {
      if (s[this.i] === '\\') this.i++;
      this.i++;
    }
    const raw = s.slice(start, this.i);
    if (s[this.i] === '"') this.i++;
    return unescapeBasic(raw);
  }

  /** Reads a `'…'` or `'''…'''` string starting at the cursor; returns its value. */
  private literalString(): string {
    const s = this.s;
    if (s.startsWith("'''", this.i)) {
      const end = s.indexOf("'''", this.i + 3);
      this.i = end < 0 ? s.length : end + 3;
      for (let k = 0; k < 2 && s[this.i] === "'"; k++) this.i++;
      return '';
    }
    this.i++;
    const start = this.i;
    while (this.i < s.length && s[this.i] !== "'" && s[this.i] !== '\n') this.i++;
    const value = s.slice(start, this.i);
    if (s[this.i] === "'") this.i++;
    return value;
  }
}

function unescapeBasic(raw: string): string {
  return raw.replace(
    /\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g,
    (_m, e: string): string => {
      switch (e[0]) {
        case 'b':
          return '\b';
        case 't':
          return '\t';
        case 'n':
          return '\n';
        case 'f':
          return '\f';
        case 'r':
          return '\r';
        case 'e':
          return '\u001b';
        case 'u':
        case 'U':
        case 'x':
          return String.fromCodePoint(parseInt(e.slice(1), 16));
        default:
          return e;
      }
    },
  );
}

/** Scans the document once: headers, key segments and comments with their positions. */
export function scanToml(text: string): TomlScan {
  const scanner = new Scanner(text);
  scanner.run();
  return {
    entries: scanner.entries,
    commentOffsets: scanner.commentOffsets,
    lineStarts: scanner.lineStarts,
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
  const { entries } = scanToml(text);
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
