/**
 * The glob patterns of `enabled_tools` / `disabled_tools` and of `[views.NAME]`
 * (docs/tool-shaping.md): two wildcards only, `*` (any run of characters, `/` and none included)
 * and `?` (exactly one character); every other character is literal. A pattern without `*` or `?`
 * is an exact name, so a tool named with `[`, `{`, `!` or `(` keeps Codex's exact meaning — which
 * is why no glob library (picomatch, minimatch, …) is used: they give those characters meaning.
 *
 * View patterns are paths `<environment>/<server>/<tool>` (`-` is the thread-wide scope).
 * Environment ids and server names never hold `/`, so a pattern splits at its first two `/`; the
 * tool part is the rest and may hold `/` itself.
 *
 * Lives in `config/` (the lowest runtime layer, pure logic) because config validation,
 * `inventory/toolFilter.ts` and `views/` all use it; `views/glob.ts` re-exports it.
 */

/** The thread-wide scope (environmentId null) in a tool path. */
export const THREAD_WIDE_SEGMENT = '-';

/** True when `pattern` holds a wildcard (`*` or `?`); otherwise it is an exact name. */
export function isGlobPattern(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}

/** Characters with a meaning in a regular expression (`u` mode allows escaping exactly these). */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** The anchored regular expression of a glob (`*` → any run, `?` → one code point). */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(REGEX_SYNTAX, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}

/** A predicate for one glob; an exact name compiles to string equality. */
export function compileGlob(pattern: string): (s: string) => boolean {
  if (!isGlobPattern(pattern)) return (s) => s === pattern;
  if (/^\*+$/.test(pattern)) return () => true;
  const regex = globToRegExp(pattern);
  return (s) => regex.test(s);
}

/** The path of one tool: `-/docs/search`, `a/shared/echo`. */
export function toolPath(environmentId: string | null, server: string, tool: string): string {
  return `${environmentId ?? THREAD_WIDE_SEGMENT}/${server}/${tool}`;
}

/** A compiled `<environment>/<server>/<tool>` pattern. */
export interface ToolPathPattern {
  /** The pattern as written. */
  readonly source: string;
  /** The tool part is `*` (or only `*`s): the pattern takes whole servers. */
  readonly wholeServer: boolean;
  matches(environmentId: string | null, server: string, tool: string): boolean;
  /** Whether the environment and server parts match (some tool of that server may match). */
  matchesServer(environmentId: string | null, server: string): boolean;
}

/** Characters an environment or server part may hold: the id/name alphabet and the wildcards. */
const SCOPE_PART = /^[A-Za-z0-9_*?-]+$/;

/** Why `pattern` is no `<environment>/<server>/<tool>` pattern, or null when it is one. */
export function toolPathPatternProblem(pattern: string): string | null {
  return toolPathProblem(pattern, 'pattern');
}

/**
 * Why `path` has not the shape `<environment>/<server>/<tool>` (two `/` at least, no empty part,
 * environment and server parts in the id alphabet or wildcards), or null. `label` names what it
 * is in the text: ``pattern `x` ``, ``tools key `x` ``.
 */
export function toolPathProblem(path: string, label: string): string | null {
  const parts = splitToolPath(path);
  return parts === null ? shapeProblem(path, label) : partsProblem(path, label, parts);
}

/** Compiles a view pattern, or returns the problem (see {@link toolPathPatternProblem}). */
export function compileToolPathPattern(pattern: string): ToolPathPattern | { problem: string } {
  const parts = splitToolPath(pattern);
  if (parts === null) return { problem: shapeProblem(pattern, 'pattern') };
  const problem = partsProblem(pattern, 'pattern', parts);
  if (problem !== null) return { problem };
  const [environmentPart, serverPart, toolPart] = parts;
  const environment = compileGlob(environmentPart);
  const server = compileGlob(serverPart);
  const tool = compileGlob(toolPart);
  const matchesServer = (environmentId: string | null, name: string): boolean =>
    environment(environmentId ?? THREAD_WIDE_SEGMENT) && server(name);
  return {
    source: pattern,
    wholeServer: /^\*+$/.test(toolPart),
    matchesServer,
    matches: (environmentId, name, toolName) =>
      matchesServer(environmentId, name) && tool(toolName),
  };
}

function shapeProblem(path: string, label: string): string {
  return `${label} \`${path}\` must be \`<environment>/<server>/<tool>\` (\`${THREAD_WIDE_SEGMENT}\` is the thread-wide scope)`;
}

function partsProblem(
  path: string,
  label: string,
  parts: readonly [string, string, string],
): string | null {
  const [environment, server, tool] = parts;
  const what = `${label} \`${path}\``;
  if (environment === '') return `${what} has an empty environment part`;
  if (server === '') return `${what} has an empty server part`;
  if (tool === '') return `${what} has an empty tool part`;
  if (!SCOPE_PART.test(environment)) {
    return `${what}: environment part \`${environment}\` can match no environment (ids are ASCII letters, digits, '-' and '_'; \`${THREAD_WIDE_SEGMENT}\` is the thread-wide scope)`;
  }
  if (!SCOPE_PART.test(server)) {
    return `${what}: server part \`${server}\` can match no server (names are ASCII letters, digits, '-' and '_')`;
  }
  return null;
}

/** `[environment, server, tool]` split at the first two `/`, or null with fewer than two. */
function splitToolPath(path: string): [string, string, string] | null {
  const first = path.indexOf('/');
  if (first < 0) return null;
  const second = path.indexOf('/', first + 1);
  if (second < 0) return null;
  return [path.slice(0, first), path.slice(first + 1, second), path.slice(second + 1)];
}

/** Splits an exact tool path (`-` → null), or returns null when it has fewer than two `/`. */
export function parseToolPath(
  path: string,
): { environmentId: string | null; server: string; tool: string } | null {
  const parts = splitToolPath(path);
  if (parts === null) return null;
  const [environment, server, tool] = parts;
  return { environmentId: environment === THREAD_WIDE_SEGMENT ? null : environment, server, tool };
}
