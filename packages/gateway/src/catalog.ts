/**
 * The gateway's inventory, computed from the session on every listing: every tool of every ready
 * registration under its gateway name, prompts named the same way, resources and templates
 * under wrapped URIs (resourceUri.ts), and the gateway's own status resource. Lookups map a
 * gateway name or URI back to its registration scope. A registration that fails to list is left
 * out and reported once through `warn`; the others are listed.
 */

import type { InventoryTool, RegistrationScope, Session } from '@mcprt/runtime';
import { scopeKey, scopeLabel } from '@mcprt/runtime';

import {
  assignGatewayNames,
  gatewayName,
  labelledDescription,
  labelledTitle,
  withRegistrationMeta,
} from './naming.js';
import { STATUS_RESOURCE_URI, wrapResourceUri } from './resourceUri.js';

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
  /** Tools by gateway name, for the inventory array they were built from. */
  private toolIndex: {
    source: readonly InventoryTool[];
    byName: Map<string, InventoryTool>;
  } | null = null;
  private readonly reported = new Set<string>();

  constructor(
    private readonly session: Session,
    /** Resolves once startup has settled (bounded): the first listings wait for it. */
    private readonly settled: () => Promise<void>,
    private readonly warn: (message: string) => void,
  ) {}

  async listTools(): Promise<Item[]> {
    await this.settled();
    return this.session.tools().map(listedTool);
  }

  /** The tool a gateway name stands for (after startup has settled, if not found at once). */
  async findTool(name: string): Promise<InventoryTool | undefined> {
    const found = this.toolNow(name);
    if (found !== undefined) return found;
    await this.settled();
    return this.toolNow(name);
  }

  /** The tool of this name in the current inventory, without waiting for servers starting. */
  toolNow(name: string): InventoryTool | undefined {
    return this.toolsByName().get(name);
  }

  /** The index of the current inventory (rebuilt only when the session's inventory changed). */
  private toolsByName(): Map<string, InventoryTool> {
    const tools = this.session.tools();
    if (this.toolIndex?.source !== tools) {
      this.toolIndex = {
        source: tools,
        byName: new Map(tools.map((t) => [gatewayName(t.modelName), t])),
      };
    }
    return this.toolIndex.byName;
  }

  async listPrompts(): Promise<Item[]> {
    await this.settled();
    const listing = await this.session.listPrompts();
    this.report('prompts/list', listing.errors);
    const items = listing.data.flatMap((d) => d.items.map((p) => ({ scope: d.scope, prompt: p })));
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
      ...listing.data.flatMap(({ scope, items }) =>
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
    return listing.data.flatMap(({ scope, items }) =>
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
    return listing.data
      .filter(({ items }) => items.some((r) => r.uri === uri))
      .map(({ scope }) => ({ scope, uri }));
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

/** A registration's tool as the gateway lists it: its definition, renamed and labelled. */
function listedTool(entry: InventoryTool): Item {
  const tool = entry.tool;
  const annotations = tool['annotations'] as { title?: unknown } | undefined;
  const title =
    typeof tool['title'] === 'string'
      ? tool['title']
      : typeof annotations?.title === 'string'
        ? annotations.title
        : tool.name;
  return {
    ...tool,
    name: gatewayName(entry.modelName),
    title: labelledTitle(title, entry.scope),
    description: labelledDescription(tool.description, entry.scope),
    _meta: withRegistrationMeta(tool['_meta'], entry.scope, { tool: tool.name }),
  };
}
