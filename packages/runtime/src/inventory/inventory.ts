/**
 * The thread's tool inventory: every enabled tool of every connected registration, with its
 * model-visible name. Rebuilt from the live connections whenever one changes (startup,
 * `list_changed`, reload), so names are always computed over the current set.
 */

import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { assignModelToolNamesBySource, type ToolNameSource } from './naming.js';
import type { ToolPolicy } from './toolFilter.js';
import { isToolEnabled } from './toolFilter.js';

export type { ToolDefinition };

export interface InventorySource {
  readonly scope: RegistrationScope;
  readonly policy: ToolPolicy;
  readonly tools: readonly ToolDefinition[];
}

export interface InventoryTool {
  readonly scope: RegistrationScope;
  /** Model-visible name, e.g. `mcp__docs__search` or `mcp__devbox__shared__echo`. */
  readonly modelName: string;
  /** The raw MCP tool definition, unchanged (its `name` is what is sent back). */
  readonly tool: ToolDefinition;
}

export class ToolInventory {
  private readonly byModelName = new Map<string, InventoryTool>();
  private readonly byScope = new Map<string, InventoryTool[]>();
  readonly tools: readonly InventoryTool[];

  constructor(sources: readonly InventorySource[]) {
    // Plain loops, one pass per step and per-registration work once per registration: a rebuild
    // runs over every tool of every server, often in code V8 has not compiled yet (ADR 0029).
    const enabled = sources.map((source): ToolNameSource & { tools: readonly ToolDefinition[] } => {
      const { policy } = source;
      if (policy.enabledTools === null && policy.disabledTools === null) return source;
      return {
        scope: source.scope,
        tools: source.tools.filter((tool) => isToolEnabled(policy, tool.name)),
      };
    });
    const names = assignModelToolNamesBySource(enabled);
    const tools = new Array<InventoryTool>(names.length);
    const byModelName = this.byModelName;
    let at = 0;
    for (const { scope, tools: definitions } of enabled) {
      if (definitions.length === 0) continue;
      const first = at;
      for (let i = 0; i < definitions.length; i++, at++) {
        const entry: InventoryTool = { scope, tool: definitions[i]!, modelName: names[at]! };
        tools[at] = entry;
        byModelName.set(entry.modelName, entry);
      }
      // A scope's tools, in order (a registration is normally one source: one slice).
      const key = scopeKey(scope);
      const list = this.byScope.get(key);
      if (list === undefined) this.byScope.set(key, tools.slice(first, at));
      else for (let i = first; i < at; i++) list.push(tools[i]!);
    }
    this.tools = tools;
  }

  findByModelName(modelName: string): InventoryTool | undefined {
    return this.byModelName.get(modelName);
  }

  forScope(scope: RegistrationScope): readonly InventoryTool[] {
    return this.byScope.get(scopeKey(scope)) ?? [];
  }
}
