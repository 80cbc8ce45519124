/**
 * One client's inventory, computed from the session on every listing, through the view and
 * environments its policy grants (docs/tool-shaping.md, docs/gateway.md; none: everything): every tool of the view under its model-visible name
 * — or, while tool search is on, its `always_load` tools and the three meta-tools — prompts named
 * like tools, resources and templates under wrapped URIs (resourceUri.ts), of the servers the
 * view selects, and the gateway's own status resource. Lookups map a gateway name or URI back to
 * its registration scope. A registration that fails to list is left out and reported once
 * through `warn`; the others are listed.
 */

import type { InventoryTool, RegistrationScope, Session, ToolView, ViewTool } from '@mcprt/runtime';
import {
  META_TOOL_NAMES as META_NAMES,
  metaToolDefinitions,
  scopeKey,
  scopeLabel,
} from '@mcprt/runtime';

import {
  assignGatewayNames,
  labelledDescription,
  labelledTitle,
  withRegistrationMeta,
} from './naming.js';
import { STATUS_RESOURCE_URI, wrapResourceUri } from './resourceUri.js';
import { gatewayToolMeta } from './uiResources.js';

type Item = Record<string, unknown>;

export interface PromptTarget {
  readonly scope: RegistrationScope;
  readonly name: string;
}

export interface ResourceTarget {
  readonly scope: RegistrationScope;
  readonly uri: string;
}

export class Catalog {
  private prompts = new Map<string, PromptTarget>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly session: Session,
    /** Resolves once startup has settled (bounded): the first listings wait for it. */
    private readonly settled: () => Promise<void>,
    private readonly warn: (message: string) => void,
    /** The view listed (null: the whole inventory). */
    readonly viewName: string | null,
    /** Only these environments' registrations (`-`: thread-wide ones); null: all. */
    readonly environments: ReadonlySet<string> | null = null,
  ) {}

  async listTools(): Promise<Item[]> {
    await this.settled();
    const view = this.view();
    const listed = view.listed.map(listedTool);
    return view.searching ? [...listed, ...metaToolDefinitions()] : listed;
  }

  /** The view over the current inventory (rebuilt only when the inventory changed). */
  view(): ToolView {
    return this.session.toolView(this.viewName, this.environments);
  }

  /**
   * Whether `name` is one of the meta-tools, listed while tool search is on (whether it is on may
   * need the servers' tools: a first call waits for startup to settle, as a first listing does).
   */
  async isMetaTool(name: string): Promise<boolean> {
    if (!META_NAMES.has(name)) return false;
    if (this.view().searching) return true;
    await this.settled();
    return this.view().searching;
  }

  /** The tool a gateway name stands for (after startup has settled, if not found at once). */
  async findTool(name: string): Promise<InventoryTool | undefined> {
    const found = this.toolNow(name);
    if (found !== undefined) return found;
    await this.settled();
    return this.toolNow(name);
  }

  /** The tool of this name in the current view, without waiting for servers starting. */
  toolNow(name: string): InventoryTool | undefined {
    return this.view().find(name)?.entry;
  }

  async listPrompts(): Promise<Item[]> {
    await this.settled();
    const listing = await this.session.listPrompts();
    this.report('prompts/list', listing.errors);
    const items = this.inView(listing.data).flatMap((d) =>
      d.items.map((p) => ({ scope: d.scope, prompt: p })),
    );
    const names = assignGatewayNames(items.map((i) => ({ scope: i.scope, name: i.prompt.name })));
    this.prompts = new Map(
      items.map((item, i) => [names[i]!, { scope: item.scope, name: item.prompt.name }]),
    );
    return items.map(({ scope, prompt }, i) => ({
      ...prompt,
      name: names[i]!,
      title: labelledTitle(prompt.title ?? prompt.name, scope),
      description: labelledDescription(prompt.description, scope),
      _meta: withRegistrationMeta(prompt._meta, scope, { prompt: prompt.name }),
    }));
  }

  async findPrompt(name: string): Promise<PromptTarget | undefined> {
    if (!this.prompts.has(name)) await this.listPrompts();
    return this.prompts.get(name);
  }

  async listResources(): Promise<Item[]> {
    await this.settled();
    const listing = await this.session.listResources();
    this.report('resources/list', listing.errors);
    const own = {
      uri: STATUS_RESOURCE_URI,
      name: 'mcprt-status',
      title: 'mcprt gateway status',
      description:
        'Every MCP server behind this gateway: its environment, state, error and, when it needs an OAuth login, the command to run.',
      mimeType: 'application/json',
    };
    return [
      own,
      ...this.inView(listing.data).flatMap(({ scope, items }) =>
        items.map((r) => ({
          ...r,
          uri: wrapResourceUri(scope, r.uri),
          title: labelledTitle(r.title ?? r.name, scope),
          description: labelledDescription(r.description, scope),
          _meta: withRegistrationMeta(r._meta, scope, { uri: r.uri }),
        })),
      ),
    ];
  }

  async listResourceTemplates(): Promise<Item[]> {
    await this.settled();
    const listing = await this.session.listResourceTemplates();
    this.report('resources/templates/list', listing.errors);
    return this.inView(listing.data).flatMap(({ scope, items }) =>
      items.map((t) => ({
        ...t,
        uriTemplate: wrapResourceUri(scope, t.uriTemplate),
        title: labelledTitle(t.title ?? t.name, scope),
        description: labelledDescription(t.description, scope),
        _meta: withRegistrationMeta(t._meta, scope, { uriTemplate: t.uriTemplate }),
      })),
    );
  }

  /** Registrations that list a resource under this (unwrapped) URI. */
  async resourcesWithUri(uri: string): Promise<ResourceTarget[]> {
    const listing = await this.session.listResources();
    return this.inView(listing.data)
      .filter(({ items }) => items.some((r) => r.uri === uri))
      .map(({ scope }) => ({ scope, uri }));
  }

  /** Whether the view selects this registration's resources, templates and prompts. */
  includesServer(scope: RegistrationScope): boolean {
    if (this.environments !== null && !this.environments.has(scope.environmentId ?? '-')) {
      return false;
    }
    return this.view().selection.includesServer(scope);
  }

  /** Whether this client may hear of a registration, or (a bare id) of an environment. */
  hears(about: RegistrationScope | string): boolean {
    if (typeof about !== 'string') return this.includesServer(about);
    return this.environments === null || this.environments.has(about);
  }

  private inView<T extends { scope: RegistrationScope }>(data: readonly T[]): T[] {
    return data.filter((d) => this.includesServer(d.scope));
  }

  /** A listing failure is said once per registration and text, not on every listing. */
  private report(method: string, errors: readonly { scope: RegistrationScope; error: string }[]) {
    for (const { scope, error } of errors) {
      const key = `${method}\u0000${scopeKey(scope)}\u0000${error}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.warn(`${method} of MCP server \`${scopeLabel(scope)}\` failed (left out): ${error}`);
    }
  }
}

/** A view's tool as the gateway lists it: the model's definition and the registration. */
function listedTool(tool: ViewTool): Item {
  // An MCP App's UI resource is named in the gateway's form for the tool's scope.
  const meta = gatewayToolMeta(tool.entry.tool['_meta'], tool.scope, wrapResourceUri);
  return {
    ...tool.definition,
    _meta: withRegistrationMeta(meta, tool.scope, {
      tool: tool.entry.tool.name,
    }),
  };
}
