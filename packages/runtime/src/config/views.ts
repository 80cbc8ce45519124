/**
 * Validation of the `[views.NAME]` tables and the `[serve]` table (docs/tool-shaping.md; shapes in
 * `viewTypes.ts`). Read in both config modes (Codex has neither table).
 *
 * A view table with an error fails alone: it goes to `invalidViews` with its first error's
 * message (`--view NAME` is refused with it); other views and every server are unaffected.
 * Unknown keys are warnings, as everywhere in the config; `strict` turns every diagnostic into a
 * thrown error (load.ts).
 *
 * `[serve]`: a problem with one of its keys is an error diagnostic. A `view` that names no valid
 * view is an error diagnostic too (``view `x` is not defined in [views]``), but the name is kept
 * as written rather than dropped: `mcprt serve` then refuses to start with the unknown (or
 * invalid) view's error instead of serving the whole inventory — a typo in the view meant to
 * narrow what an agent sees must never widen it. A `view` naming an invalid view gets no second
 * diagnostic (the view's own error is reported).
 */

import type { Context } from './diagnostics.js';
import { Sink } from './diagnostics.js';
import { Fields, isTable, typeName } from './fields.js';
import { readServeAuth } from './serveAuth.js';
import { readServePolicies } from './servePolicies.js';
import { isGlobPattern, toolPathPatternProblem, toolPathProblem } from './glob.js';
import type { KeyPath } from './locate.js';
import type { InvalidViewConfig, ServeConfig, ViewConfig, ViewToolOverride } from './viewTypes.js';
import {
  DEFAULT_SERVE_CONFIG,
  DEFAULT_SERVE_STARTUP_WAIT_SEC,
  DEFAULT_TOOL_SEARCH_THRESHOLD_TOKENS,
  DEFAULT_VIEW_INCLUDE,
  MAX_SERVE_STARTUP_WAIT_SEC,
  TOOL_PREFIX_MODES,
  TOOL_SEARCH_MODES,
} from './viewTypes.js';

/** View names (the `NAME` of `[views.NAME]`). */
export const VIEW_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A model-visible tool name given by `[views.NAME.tools."…"] name`. */
export const VIEW_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The tool-search meta-tools' names: no tool of a view with tool search may take them. */
export const TOOL_SEARCH_TOOL_NAMES: readonly string[] = [
  'search_tools',
  'get_tool_details',
  'call_tool',
];

const VIEW_KEYS = new Set([
  'include',
  'exclude',
  'tool_search',
  'tool_search_threshold_tokens',
  'always_load',
  'tool_prefix',
  'tools',
]);
const OVERRIDE_KEYS = new Set(['name', 'title', 'description', 'annotations']);
const SERVE_KEYS = new Set([
  'view',
  'tool_prefix',
  'auth',
  'policies',
  'startup_wait_sec',
  'metrics_public',
  'replicas',
]);

/** MCP's tool annotations and their types; others are passed on (with an unknown-key warning). */
const ANNOTATION_TYPES: Readonly<Record<string, 'string' | 'boolean'>> = {
  title: 'string',
  readOnlyHint: 'boolean',
  destructiveHint: 'boolean',
  idempotentHint: 'boolean',
  openWorldHint: 'boolean',
};

type Report = (path: KeyPath, problem: string) => void;

export interface ViewsResult {
  readonly views: readonly ViewConfig[];
  readonly invalidViews: readonly InvalidViewConfig[];
}

/** Reads `[views]`: every `[views.NAME]` table, valid ones in file order. */
export function readViews(ctx: Context, root: Fields): ViewsResult {
  const views: ViewConfig[] = [];
  const invalidViews: InvalidViewConfig[] = [];
  const table = root.subTable('views');
  if (table === null) return { views, invalidViews };
  for (const [name, raw] of Object.entries(table.table)) {
    const result = validateView(ctx, name, raw);
    if ('error' in result) invalidViews.push(result);
    else views.push(result);
  }
  return { views, invalidViews };
}

/** One `[views.NAME]` table: the view, or its first error. */
export function validateView(
  ctx: Context,
  name: string,
  raw: unknown,
): ViewConfig | InvalidViewConfig {
  const sink = new Sink(ctx);
  const error: Report = (p, problem) => sink.error(p, problem);
  const warn: Report = (p, problem) => sink.warn(p, problem);
  const path: KeyPath = ['views', name];
  const location = ctx.location(path);
  const fail = (): InvalidViewConfig => ({
    name,
    error: sink.firstError()?.message ?? '',
    location,
  });

  if (!VIEW_NAME_PATTERN.test(name)) {
    error(path, `invalid view name \`${name}\`: must match pattern ^[A-Za-z0-9_-]+$`);
  }
  if (!isTable(raw)) {
    error(path, `expected a table, found ${typeName(raw)}`);
    return fail();
  }
  const f = new Fields(raw, path, error);
  f.unknownKeys(VIEW_KEYS, warn);

  const include = readPatterns(f, 'include', error) ?? DEFAULT_VIEW_INCLUDE;
  const exclude = readPatterns(f, 'exclude', error) ?? [];
  const toolSearch = f.enumeration('tool_search', TOOL_SEARCH_MODES) ?? 'auto';
  let toolSearchThresholdTokens = DEFAULT_TOOL_SEARCH_THRESHOLD_TOKENS;
  const threshold = f.integer('tool_search_threshold_tokens');
  if (threshold !== null && threshold < 1) {
    error(
      f.at('tool_search_threshold_tokens'),
      'tool_search_threshold_tokens must be a positive integer',
    );
  } else if (threshold !== null) toolSearchThresholdTokens = threshold;
  const alwaysLoad = readPatterns(f, 'always_load', error) ?? [];
  const toolPrefix = f.enumeration('tool_prefix', TOOL_PREFIX_MODES);
  const tools = readOverrides(ctx, f, toolSearch !== 'off', error, warn);

  if (sink.errorCount() > 0) return fail();
  return {
    name,
    include,
    exclude,
    toolSearch,
    toolSearchThresholdTokens,
    alwaysLoad,
    toolPrefix,
    tools,
    location,
  };
}

/** A string array of `<environment>/<server>/<tool>` patterns; each bad one is an error. */
function readPatterns(f: Fields, key: string, error: Report): string[] | null {
  const patterns = f.stringArray(key);
  if (patterns === null) return null;
  let ok = true;
  patterns.forEach((pattern, index) => {
    const problem = toolPathPatternProblem(pattern);
    if (problem !== null) {
      ok = false;
      error([...f.at(key), index], problem);
    }
  });
  return ok ? patterns : null;
}

/** `[views.NAME.tools."<environment>/<server>/<tool>"]` tables, keyed by exact path. */
function readOverrides(
  ctx: Context,
  f: Fields,
  toolSearch: boolean,
  error: Report,
  warn: Report,
): Record<string, ViewToolOverride> {
  const tools = f.subTable('tools');
  if (tools === null) return {};
  const entries: [string, ViewToolOverride][] = [];
  /** Model-visible name → the path renamed to it first. */
  const renamed = new Map<string, string>();
  for (const key of Object.keys(tools.table)) {
    const keyProblem = overrideKeyProblem(key);
    if (keyProblem !== null) error(tools.at(key), keyProblem);
    const entry = tools.subTable(key);
    if (entry === null) continue;
    entry.unknownKeys(OVERRIDE_KEYS, warn);
    const name = entry.string('name');
    if (name !== null) {
      if (!VIEW_TOOL_NAME_PATTERN.test(name)) {
        error(entry.at('name'), `name \`${name}\` must match ^[A-Za-z0-9_-]{1,64}$`);
      } else if (toolSearch && TOOL_SEARCH_TOOL_NAMES.includes(name)) {
        error(
          entry.at('name'),
          `name \`${name}\` is a tool search meta-tool's name (free only with tool_search = "off")`,
        );
      } else {
        const first = renamed.get(name);
        if (first !== undefined) {
          error(
            entry.at('name'),
            `tools \`${first}\` and \`${key}\` are both renamed to \`${name}\``,
          );
        } else renamed.set(name, key);
      }
    }
    const title = entry.string('title');
    const description = entry.string('description');
    const annotations = readAnnotations(entry, error, warn);
    entries.push([
      key,
      { name, title, description, annotations, location: ctx.location(entry.path) },
    ]);
  }
  return Object.fromEntries(entries);
}

/** Why `key` is no exact `<environment>/<server>/<tool>` path, or null. */
function overrideKeyProblem(key: string): string | null {
  const shape = toolPathProblem(key, 'tools key');
  if (shape !== null) return shape;
  if (!isGlobPattern(key)) return null;
  return `tools key \`${key}\` must be an exact path: \`*\` and \`?\` are wildcards, which only include, exclude and always_load take`;
}

function readAnnotations(
  entry: Fields,
  error: Report,
  warn: Report,
): Readonly<Record<string, unknown>> | null {
  const table = entry.subTable('annotations');
  if (table === null) return null;
  for (const [key, value] of Object.entries(table.table)) {
    const expected = ANNOTATION_TYPES[key];
    if (expected === undefined) warn(table.at(key), `unknown key \`${key}\``);
    else if (typeof value !== expected) {
      error(table.at(key), `expected a ${expected}, found ${typeName(value)}`);
    }
  }
  return { ...table.table };
}

/** Reads `[serve]`; see the module header for a `view` that names no valid view. */
export function readServe(ctx: Context, root: Fields, views: ViewsResult): ServeConfig {
  const table = root.subTable('serve');
  if (table === null) return DEFAULT_SERVE_CONFIG;
  const sink = new Sink(ctx);
  const error: Report = (p, problem) => sink.error(p, problem);
  const f = new Fields(table.table, table.path, error);
  f.unknownKeys(SERVE_KEYS, (p, problem) => sink.warn(p, problem));
  const view = f.string('view');
  if (
    view !== null &&
    !views.views.some((v) => v.name === view) &&
    !views.invalidViews.some((v) => v.name === view)
  ) {
    const defined = views.views.map((v) => `\`${v.name}\``).join(', ');
    error(
      f.at('view'),
      `view \`${view}\` is not defined in [views]${defined === '' ? '' : ` (defined: ${defined})`}`,
    );
  }
  return {
    view,
    toolPrefix: f.enumeration('tool_prefix', TOOL_PREFIX_MODES),
    auth: readServeAuth(ctx, f),
    policies: readServePolicies(ctx, f, views),
    startupWaitSec:
      f.integerInRange('startup_wait_sec', 0, MAX_SERVE_STARTUP_WAIT_SEC, 'startup_wait_sec') ??
      DEFAULT_SERVE_STARTUP_WAIT_SEC,
    metricsPublic: f.boolean('metrics_public', false),
    replicas: readReplicas(f, error),
  };
}

/** `replicas`: each an `http(s)://HOST:PORT` origin (no path, no credentials), no repeats. */
function readReplicas(f: Fields, error: Report): string[] {
  const given = f.stringArray('replicas') ?? [];
  const origins: string[] = [];
  given.forEach((text) => {
    let url: URL | null = null;
    try {
      url = new URL(text);
    } catch {
      url = null;
    }
    const plain =
      url !== null &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      (url.pathname === '/' || url.pathname === '/mcp') &&
      url.search === '' &&
      url.hash === '';
    if (url === null || !plain) {
      error(f.at('replicas'), `\`${text}\` is not an http(s)://HOST:PORT origin`);
      return;
    }
    if (origins.includes(url.origin)) {
      error(f.at('replicas'), `\`${text}\` is listed twice`);
      return;
    }
    origins.push(url.origin);
  });
  return origins;
}
