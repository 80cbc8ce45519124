/**
 * `/mcp` and `/mcp verbose` as lines. Compact (Codex's `toolsAndAuthOnly`): one line per
 * registration, `• name@env: label (N tools, T tokens)` (bare `name` for thread-wide), grouped by
 * registration scope, then what the thread's tools cost (`thread/toolView/get`: the view's tool
 * count and tokens with tool search off and on, and its over-threshold warning) when the
 * app-server told it. Verbose adds the negotiated MCP protocol revision, auth, tools (and their
 * model-visible names), resources, templates, and for servers that are not connected the cause
 * and the stderr tail. Under a view the status items carry only the view's tools.
 */

import type { McpAuthStatus, McpServerStatus, ThreadToolViewGetResult } from '@mcprt/protocol';

import { clampLines, displayWidth, truncate, wrap } from '../text/fit.js';
import type { Line, Tone } from './lines.js';
import { line } from './lines.js';
import type { StatusLabel } from './mcpStatus.js';
import { groupByScope, rowSummary, toolCostSummary, toolCostWarning } from './mcpStatus.js';
import type { Registration } from './registrations.js';
import { failureCause, statusLabel, toolCount } from './registrations.js';
import { markedToolName } from './appView.js';

export interface EnvironmentSummary {
  readonly kind: string;
  readonly status: string;
  readonly error: string | null;
}

export interface McpViewContext {
  readonly width: number;
  /** The thread's environments, in priority order. */
  readonly environmentOrder: readonly string[];
  readonly environments: ReadonlyMap<string, EnvironmentSummary>;
  /** Lines of stderr shown per failed server in the verbose view. */
  readonly stderrLines?: number;
  /** What the thread's view costs (`thread/toolView/get`); null or absent: not known. */
  readonly toolView?: ThreadToolViewGetResult | null;
}

const AUTH_LABELS: Record<McpAuthStatus, string> = {
  unknown: 'Unknown',
  unsupported: 'Unsupported',
  notLoggedIn: 'Not logged in',
  bearerToken: 'Bearer token',
  oAuth: 'OAuth',
};

const TONES: Record<StatusLabel, Tone> = {
  connected: 'ok',
  starting: 'warn',
  'authentication required': 'warn',
  failed: 'error',
  'not started': 'dim',
  disabled: 'dim',
  cancelled: 'dim',
  unknown: 'dim',
};

const INDENT = '      ';
/** Lines one detail of `/mcp verbose` may take (a failure's cause: more), then `… N more lines`. */
const FIELD_LINES = 4;
const CAUSE_LINES = 8;

export function compactView(regs: readonly Registration[], ctx: McpViewContext): Line[] {
  return view(regs, ctx, false);
}

export function verboseView(regs: readonly Registration[], ctx: McpViewContext): Line[] {
  return view(regs, ctx, true);
}

function view(regs: readonly Registration[], ctx: McpViewContext, verbose: boolean): Line[] {
  const out: Line[] = [line(truncate('/mcp' + (verbose ? ' verbose' : ''), ctx.width), 'bold')];
  if (regs.length === 0) {
    out.push(line(truncate('No MCP servers configured.', ctx.width)));
    return out;
  }
  const cost = ctx.toolView ?? null;
  for (const group of groupByScope(regs, ctx.environmentOrder)) {
    out.push(line(groupHeader(group.environmentId, ctx), 'accent'));
    for (const r of group.items) {
      out.push(registrationLine(r, ctx.width, cost === null ? null : serverTokens(cost, r)));
      if (verbose) out.push(...details(r, ctx));
    }
  }
  if (cost !== null) {
    out.push(...wrap(toolCostSummary(cost), ctx.width, '', '  ').map((t) => line(t, 'dim')));
    const warning = toolCostWarning(cost);
    if (warning !== null)
      out.push(...wrap(warning, ctx.width, '', '  ').map((t) => line(t, 'warn')));
  }
  if (!verbose) {
    const failed = regs.some((r) => failureCause(r) !== null);
    const hint = failed
      ? 'Use /mcp verbose for tools, resources and failure causes.'
      : 'Use /mcp verbose for tools and resources.';
    out.push(...wrap(hint, ctx.width).map((t) => line(t, 'dim')));
  }
  return out;
}

function groupHeader(environmentId: string | null, ctx: McpViewContext): string {
  if (environmentId === null) return truncate('thread-wide', ctx.width);
  const env = ctx.environments.get(environmentId);
  const kind = env ? ` (${env.kind})` : '';
  const health = env && env.status !== 'ready' ? ` — ${env.status}` : '';
  return truncate(`environment ${environmentId}${kind}${health}`, ctx.width);
}

/** The tokens of a registration's tools in the view (0: none of its tools is in it). */
function serverTokens(cost: ThreadToolViewGetResult, r: Registration): number {
  const server = cost.servers.find(
    (s) => s.server === r.name && s.environmentId === r.environmentId,
  );
  return server?.tokens ?? 0;
}

/**
 * `  • name@env: label (N tools[, T tokens])`: the name is shortened before the label is;
 * `tokens` of the registration's tools when known.
 */
export function registrationLine(
  r: Registration,
  width: number,
  tokens: number | null = null,
): Line {
  const label = statusLabel(r);
  const { name, suffix } = rowSummary({
    name: r.name,
    environmentId: r.environmentId,
    label,
    toolCount: toolCount(r),
    tokens,
    executionEnvironmentId: r.status?.executionEnvironmentId,
  });
  const lead = '  • ';
  const budget = width - displayWidth(lead) - displayWidth(suffix);
  const text =
    budget >= Math.min(12, displayWidth(name))
      ? `${lead}${truncate(name, budget)}${suffix}`
      : truncate(`${lead}${name}${suffix}`, width);
  return line(text, TONES[label]);
}

function details(r: Registration, ctx: McpViewContext): Line[] {
  const w = ctx.width;
  const out: Line[] = [];
  // Server-chosen text (names, titles, URIs, errors) in at most a few lines each.
  const field = (label: string, value: string, tone: Tone = 'plain', max = FIELD_LINES) =>
    out.push(
      ...clampLines(wrap(value, w, `${INDENT}${label}: `, `${INDENT}  `, max + 1), max, w).map(
        (t) => line(t, tone),
      ),
    );
  const s = r.status;
  const scopeEnv = r.environmentId ?? 'local';
  if (s?.executionEnvironmentId !== undefined && s.executionEnvironmentId !== scopeEnv)
    field('Runs in', s.executionEnvironmentId);
  if (s?.serverInfo) field('Server', `${s.serverInfo.name} ${s.serverInfo.version}`.trim());
  if (s?.protocolVersion !== undefined) field('Protocol', `MCP ${s.protocolVersion}`);
  if (s) field('Auth', AUTH_LABELS[s.authStatus]);
  if (statusLabel(r) === 'authentication required') {
    const env = r.environmentId === null ? '' : ` --environment ${r.environmentId}`;
    field('Login', `/mcp login ${r.name}${env}`, 'warn');
  }
  const cause = failureCause(r);
  if (cause !== null) field('Cause', cause, 'error', CAUSE_LINES);
  if (s) {
    const names = Object.entries(s.tools).map(([name, tool]) => markedToolName(name, tool));
    field('Tools', names.length > 0 ? names.join(', ') : '(none)');
    const model = modelNames(s);
    if (model !== null) field('Model names', model, 'dim');
    field(
      'Resources',
      s.resources.length > 0
        ? s.resources.map((x) => `${x.title ?? x.name} (${x.uri})`).join(', ')
        : '(none)',
    );
    field(
      'Resource templates',
      s.resourceTemplates.length > 0
        ? s.resourceTemplates.map((x) => `${x.title ?? x.name} (${x.uriTemplate})`).join(', ')
        : '(none)',
    );
  }
  // Lines the cause already quotes are not repeated.
  const tail = (s?.stderrTail ?? []).filter((l) => l.trim() !== '' && !cause?.includes(l.trim()));
  if (cause !== null && tail.length > 0) {
    out.push(line(truncate(`${INDENT}Stderr (last lines):`, w), 'dim'));
    for (const l of tail.slice(-(ctx.stderrLines ?? 5)))
      out.push(
        ...clampLines(wrap(l, w, `${INDENT}  `, `${INDENT}    `, 3), 2, w).map((t) =>
          line(t, 'dim'),
        ),
      );
  }
  return out;
}

/** `prefix<tool>` when every model name is one prefix plus the tool's name, else the pairs. */
function modelNames(s: McpServerStatus): string | null {
  const pairs = Object.entries(s.modelToolNames ?? {});
  if (pairs.length === 0) return null;
  // The runtime replaces characters outside [A-Za-z0-9_] with `_` in model-visible names.
  const prefixes = new Set(
    pairs.map(([raw, model]) => {
      const safe = raw.replace(/[^A-Za-z0-9_]/gu, '_');
      return model.endsWith(safe) ? model.slice(0, -safe.length) : null;
    }),
  );
  const [only] = [...prefixes];
  if (prefixes.size === 1 && typeof only === 'string') return `${only}<tool>`;
  return pairs.map(([raw, model]) => `${raw} → ${model}`).join(', ');
}
