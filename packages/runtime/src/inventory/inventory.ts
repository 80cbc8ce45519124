/**
 * The thread's tool inventory: every enabled tool of every connected registration, with its
 * model-visible name. Rebuilt from the live connections whenever one changes (startup,
 * `list_changed`, reload), so names are always computed over the current set.
 */

import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { assignModelToolNames } from './naming.js';
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
    const picked = sources.flatMap((source) =>
      source.tools
        .filter((tool) => isToolEnabled(source.policy, tool.name))
        .map((tool) => ({ scope: source.scope, tool })),
    );
    const names = assignModelToolNames(picked.map((p) => ({ scope: p.scope, tool: p.tool.name })));
    this.tools = picked.map((p, i) => ({ scope: p.scope, tool: p.tool, modelName: names[i]! }));
    for (const entry of this.tools) {
      this.byModelName.set(entry.modelName, entry);
      const key = scopeKey(entry.scope);
      const list = this.byScope.get(key) ?? [];
      list.push(entry);
      this.byScope.set(key, list);
    }
  }

  findByModelName(modelName: string): InventoryTool | undefined {
    return this.byModelName.get(modelName);
  }

  forScope(scope: RegistrationScope): readonly InventoryTool[] {
    return this.byScope.get(scopeKey(scope)) ?? [];
  }
}
