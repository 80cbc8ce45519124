/**
 * A session's views: which `[views.NAME]` table a name stands for (the config as it is now; a
 * reload that drops the session's own view keeps the table the session started with), and one
 * `ToolView` per (view, inventory snapshot), so a listing, a lookup and a search between two
 * inventory changes share one set of names and one search index.
 */

import type { McprtConfig } from '../config/types.js';
import type { ViewConfig } from '../config/viewTypes.js';
import { UnknownViewError } from '../errors.js';
import type { InventoryTool } from '../inventory/inventory.js';
import { prepareTokenCounter } from './toolCost.js';
import { ToolView } from './toolView.js';
import { ViewSelection } from './viewSelection.js';

export class SessionViews {
  private readonly cache = new Map<string, ToolView>();
  private source: readonly InventoryTool[] | null = null;
  private ownSelection: ViewSelection | null = null;
  /** The session's own view table, as resolved when it started. */
  private readonly own: ViewConfig | null;

  constructor(
    private config: McprtConfig,
    /** The session's view (null: the whole inventory). */
    readonly view: string | null,
  ) {
    this.own = view === null ? null : resolveView(config, view);
  }

  /** While the servers start: what the session's view will need for its first listing. */
  prepare(): void {
    if (this.configOf(this.view)?.toolSearch === 'auto') prepareTokenCounter();
  }

  setConfig(config: McprtConfig): void {
    this.config = config;
    this.cache.clear();
    this.ownSelection = null;
  }

  /** The session's own view's selection (for call-time checks; no inventory needed). */
  selection(): ViewSelection {
    this.ownSelection ??= new ViewSelection(this.configOf(this.view));
    return this.ownSelection;
  }

  /**
   * The view `name` (default: the session's) over this inventory snapshot, of the registrations
   * of `environments` only when given (`-`: thread-wide registrations).
   */
  toolView(
    inventory: readonly InventoryTool[],
    name: string | null = this.view,
    environments: ReadonlySet<string> | null = null,
  ): ToolView {
    if (this.source !== inventory) {
      this.cache.clear();
      this.source = inventory;
    }
    const key =
      environments === null ? (name ?? '') : `${name ?? ''}\u0000${environmentsKey(environments)}`;
    let view = this.cache.get(key);
    if (view === undefined) {
      const config = this.configOf(name);
      view = new ToolView({
        config,
        inventory:
          environments === null
            ? inventory
            : inventory.filter((t) => environments.has(environmentOf(t.scope.environmentId))),
        toolPrefix: config?.toolPrefix ?? this.config.serve.toolPrefix,
        environmentDescriptions: descriptions(this.config),
      });
      this.cache.set(key, view);
    }
    return view;
  }

  private configOf(name: string | null): ViewConfig | null {
    if (name === null) return null;
    if (name === this.view) {
      return this.config.views.find((v) => v.name === name) ?? this.own;
    }
    return resolveView(this.config, name);
  }
}

/** The valid view `name` of `config`, else `UnknownViewError` (saying why when it is invalid). */
export function resolveView(config: McprtConfig, name: string): ViewConfig {
  const found = config.views.find((v) => v.name === name);
  if (found !== undefined) return found;
  const invalid = config.invalidViews.find((v) => v.name === name);
  throw new UnknownViewError(
    name,
    config.views.map((v) => v.name),
    invalid?.error ?? null,
  );
}

/** A registration's environment as policies and view patterns name it (`-`: thread-wide). */
export function environmentOf(environmentId: string | null): string {
  return environmentId ?? '-';
}

function environmentsKey(environments: ReadonlySet<string>): string {
  return [...environments].sort().join('\u0000');
}

function descriptions(config: McprtConfig): Map<string, string> {
  const map = new Map<string, string>();
  for (const e of config.environments) if (e.description !== null) map.set(e.id, e.description);
  return map;
}
