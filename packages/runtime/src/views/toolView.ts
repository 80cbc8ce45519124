/**
 * A view of a session's tool inventory, as a model sees it (docs/tool-shaping.md): the tools the
 * view selects, each under its model-visible name with the view's overrides, labelled with the
 * `server@env` it belongs to; whether tool search is on and so what `tools/list` shows; the
 * search index over the view's tools; and what its definitions cost in tokens. One `ToolView` is
 * built per inventory snapshot (sessionViews.ts caches it), so everything here describes one
 * fixed set of tools; the search index and the costs are made on first use.
 */

import { scopeLabel } from '@mcprt/base';

import type { ToolPrefixMode, ViewConfig } from '../config/viewTypes.js';
import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { InventoryTool } from '../inventory/inventory.js';
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { toolPath } from './glob.js';
import { META_TOOL_NAMES, metaToolDefinitions } from './metaTools.js';
import { toolDefinitionTokens } from './toolCost.js';
import type { ToolSearchHit } from './toolSearch.js';
import { ToolSearchIndex } from './toolSearch.js';
import { alwaysName, assignViewNames, defaultName } from './viewNames.js';
import { ViewSelection } from './viewSelection.js';

export interface ViewTool {
  /** The model-visible name (what `tools/list` shows and `tools/call` takes). */
  readonly name: string;
  /** `<environment>/<server>/<tool>` (`-` for the thread-wide scope). */
  readonly path: string;
  readonly scope: RegistrationScope;
  /** The inventory's entry: the server's own definition and raw name. */
  readonly entry: InventoryTool;
  /** As the model receives it: renamed, overridden, title and description labelled. */
  readonly definition: ToolDefinition;
  /** Listed even while tool search is on (`always_load`). */
  readonly alwaysLoad: boolean;
}

/** What a view's definitions cost a model, in o200k_base tokens (toolCost.ts). */
export interface ViewCost {
  readonly view: string | null;
  readonly tools: number;
  /** Every definition, as listed with search off. */
  readonly allTokens: number;
  /** The `always_load` definitions plus the three meta-tools: what search on lists. */
  readonly searchTokens: number;
  /** What `tools/list` costs now (one of the two above). */
  readonly listedTokens: number;
  /** The view's `tool_search_threshold_tokens` (null without a view: no threshold). */
  readonly thresholdTokens: number | null;
  readonly searching: boolean;
  /** `tool_search = "off"` and the definitions are over the threshold. */
  readonly overThreshold: boolean;
  /** Per registration, in inventory order (plain data: hosts send it as it is). */
  readonly servers: readonly {
    readonly server: string;
    readonly environmentId: string | null;
    readonly tools: number;
    readonly tokens: number;
  }[];
}

export interface ToolViewInput {
  readonly config: ViewConfig | null;
  /** The inventory's tools (every enabled tool of every connected registration). */
  readonly inventory: readonly InventoryTool[];
  /** The view's `tool_prefix`, else the gateway's (`[serve]`), else null: default names. */
  readonly toolPrefix: ToolPrefixMode | null;
  /** Environment descriptions (`[environments.X] description`), for search. */
  readonly environmentDescriptions: ReadonlyMap<string, string>;
}

export class ToolView {
  readonly name: string | null;
  readonly selection: ViewSelection;
  /** Every tool of the view, in inventory order. */
  readonly tools: readonly ViewTool[];
  readonly searching: boolean;
  /** What `tools/list` shows: every tool, or (search on) the `always_load` ones. */
  readonly listed: readonly ViewTool[];
  private readonly byName = new Map<string, ViewTool>();
  private readonly byRaw = new Map<string, ViewTool>();
  private readonly inventory: readonly InventoryTool[];
  private readonly descriptions: ReadonlyMap<string, string>;
  private readonly toolPrefix: ToolPrefixMode | null;
  private outsideNames: Map<string, InventoryTool> | undefined;
  private index: ToolSearchIndex | undefined;
  private costs: ViewCost | undefined;

  constructor(input: ToolViewInput) {
    const { config } = input;
    this.name = config?.name ?? null;
    this.inventory = input.inventory;
    this.descriptions = input.environmentDescriptions;
    this.toolPrefix = input.toolPrefix;
    this.selection = new ViewSelection(config);
    const selected = input.inventory.filter((t) => this.selection.includes(t.scope, t.tool.name));
    const mode = config?.toolSearch ?? 'off';
    const paths = selected.map((t) => toolPath(t.scope.environmentId, t.scope.name, t.tool.name));
    const named = selected.map((t, i) => ({
      scope: t.scope,
      tool: t.tool.name,
      modelName: t.modelName,
      rename: config?.tools[paths[i]!]?.name ?? null,
    }));
    // While search can be on, the meta-tools' names are taken.
    const reserved = mode === 'off' ? new Set<string>() : META_TOOL_NAMES;
    const names = assignViewNames(named, input.toolPrefix, reserved);
    this.tools = selected.map((entry, i) => {
      const path = paths[i]!;
      const tool: ViewTool = {
        name: names[i]!,
        path,
        scope: entry.scope,
        entry,
        definition: modelDefinition(entry, names[i]!, config?.tools[path]),
        alwaysLoad: this.selection.alwaysLoad(entry.scope, entry.tool.name),
      };
      this.byName.set(tool.name, tool);
      this.byRaw.set(rawKey(entry.scope, entry.tool.name), tool);
      return tool;
    });
    const threshold = config?.toolSearchThresholdTokens ?? Infinity;
    this.searching =
      mode === 'always' || (mode === 'auto' && this.tokensOver(this.tools, threshold));
    this.listed = this.searching ? this.tools.filter((t) => t.alwaysLoad) : this.tools;
  }

  /** The view's tool of this model-visible name. */
  find(name: string): ViewTool | undefined {
    return this.byName.get(name);
  }

  /** The view's tool for a raw tool of a registration (undefined: not in the view). */
  findRaw(scope: RegistrationScope, tool: string): ViewTool | undefined {
    return this.byRaw.get(rawKey(scope, tool));
  }

  /**
   * An inventory tool outside the view that `name` stands for (its default or `always` name), so
   * a call to it can be refused as outside the view rather than as unknown.
   */
  outside(name: string): InventoryTool | undefined {
    if (this.outsideNames === undefined) {
      this.outsideNames = new Map();
      for (const entry of this.inventory) {
        if (this.findRaw(entry.scope, entry.tool.name) !== undefined) continue;
        this.outsideNames.set(defaultName(entry.modelName), entry);
        this.outsideNames.set(alwaysName(entry.scope, entry.tool.name), entry);
      }
    }
    return this.outsideNames.get(name);
  }

  /** The view's tools best matching `query` (search_tools; built on first use). */
  search(query: string, limit?: number): ToolSearchHit[] {
    this.index ??= ToolSearchIndex.build(
      this.tools.map((t) => ({
        name: t.name,
        server: t.scope.name,
        environmentId: t.scope.environmentId,
        environmentDescription:
          t.scope.environmentId === null
            ? null
            : (this.descriptions.get(t.scope.environmentId) ?? null),
        tool: t.definition,
      })),
    );
    return this.index.search(query, limit);
  }

  /** What the view's definitions cost (computed once per snapshot). */
  cost(): ViewCost {
    if (this.costs !== undefined) return this.costs;
    type ServerCost = {
      server: string;
      environmentId: string | null;
      tools: number;
      tokens: number;
    };
    const servers = new Map<string, ServerCost>();
    let allTokens = 0;
    let alwaysTokens = 0;
    for (const t of this.tools) {
      const tokens = toolDefinitionTokens(t.definition);
      allTokens += tokens;
      if (t.alwaysLoad) alwaysTokens += tokens;
      const key = scopeKey(t.scope);
      const server = servers.get(key) ?? {
        server: t.scope.name,
        environmentId: t.scope.environmentId,
        tools: 0,
        tokens: 0,
      };
      server.tools += 1;
      server.tokens += tokens;
      servers.set(key, server);
    }
    const metaTokens = metaToolDefinitions().reduce((n, d) => n + toolDefinitionTokens(d), 0);
    const searchTokens = alwaysTokens + metaTokens;
    const threshold = this.selection.config?.toolSearchThresholdTokens ?? null;
    this.costs = {
      view: this.name,
      tools: this.tools.length,
      allTokens,
      searchTokens,
      listedTokens: this.searching ? searchTokens : allTokens,
      thresholdTokens: threshold,
      searching: this.searching,
      overThreshold: !this.searching && threshold !== null && allTokens > threshold,
      servers: [...servers.values()],
    };
    return this.costs;
  }

  /** The `tool_prefix` the names were made with (null: default names). */
  get prefixMode(): ToolPrefixMode | null {
    return this.toolPrefix;
  }

  /** Whether the sum of the definitions' tokens passes `threshold` (stops counting there). */
  private tokensOver(tools: readonly ViewTool[], threshold: number): boolean {
    if (threshold === Infinity) return false;
    let total = 0;
    for (const t of tools) {
      total += toolDefinitionTokens(t.definition);
      if (total > threshold) return true;
    }
    return false;
  }
}

function rawKey(scope: RegistrationScope, tool: string): string {
  return `${scopeKey(scope)}\u0000${tool}`;
}

/**
 * The last model definition made of each server definition: an inventory rebuilt after another
 * server changed keeps this one's definition objects, so reusing the model definition keeps its
 * token count (cached per object, toolCost.ts) and the listing's objects from being made anew.
 */
const lastDefinition = new WeakMap<
  ToolDefinition,
  { name: string; override: unknown; label: string; definition: ToolDefinition }
>();

/** The server's definition as the model receives it: renamed, overridden and labelled. */
function modelDefinition(
  entry: InventoryTool,
  name: string,
  override: ViewConfig['tools'][string] | undefined,
): ToolDefinition {
  const label = scopeLabel(entry.scope);
  const last = lastDefinition.get(entry.tool);
  if (
    last !== undefined &&
    last.name === name &&
    last.override === override &&
    last.label === label
  ) {
    return last.definition;
  }
  const definition = makeModelDefinition(entry, name, override);
  lastDefinition.set(entry.tool, { name, override, label, definition });
  return definition;
}

function makeModelDefinition(
  entry: InventoryTool,
  name: string,
  override: ViewConfig['tools'][string] | undefined,
): ToolDefinition {
  const tool = entry.tool;
  const annotations = tool['annotations'] as Record<string, unknown> | undefined;
  const ownTitle =
    typeof tool['title'] === 'string'
      ? tool['title']
      : typeof annotations?.['title'] === 'string'
        ? annotations['title']
        : tool.name;
  const definition: Record<string, unknown> = {
    ...tool,
    name,
    title: labelledTitle(override?.title ?? ownTitle, entry.scope),
    description: labelledDescription(override?.description ?? tool.description, entry.scope),
  };
  if (override?.annotations != null) {
    definition['annotations'] = { ...(annotations ?? {}), ...override.annotations };
  }
  return definition as unknown as ToolDefinition;
}

/** `Title (server@env)`. */
export function labelledTitle(title: string, scope: RegistrationScope): string {
  return `${title} (${scopeLabel(scope)})`;
}

/** `[server@env] description`. */
export function labelledDescription(description: unknown, scope: RegistrationScope): string {
  const text = typeof description === 'string' ? description.trim() : '';
  return text === '' ? `[${scopeLabel(scope)}]` : `[${scopeLabel(scope)}] ${text}`;
}
