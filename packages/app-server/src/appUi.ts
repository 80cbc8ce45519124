/**
 * The MCP App of a tool call's item (Codex's `mcpAppResourceUri` and `mcpAppUi` on the
 * `mcpToolCall` thread item): the UI resource the called tool's descriptor names
 * (`_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`) and its preferred
 * display mode (`_meta["openai/ui"].preferredModelDisplayMode`, as Codex reads it; `inline`
 * otherwise). Looked up in the session's inventory, indexed once per inventory.
 */

import type { InventoryTool, RegistrationScope } from '@mcprt/runtime';
import { scopeKey, toolUiResourceUri } from '@mcprt/runtime';

export interface McpAppFields {
  readonly mcpAppResourceUri: string;
  readonly mcpAppUi: {
    readonly preferredModelDisplayMode: 'inline' | 'fullscreen';
    readonly resourceUri: string;
  };
}

interface Indexed {
  readonly fields: McpAppFields;
  /** The fields as JSON members, `,"mcpAppResourceUri":…,"mcpAppUi":{…}`. */
  readonly text: string;
}

export class AppUiLookup {
  private indexedFor: readonly InventoryTool[] | undefined;
  private byTool = new Map<string, Indexed>();

  constructor(private readonly tools: () => readonly InventoryTool[]) {}

  /** The item fields of a call of `tool` on `scope` (undefined: the tool has no app UI). */
  fields(scope: RegistrationScope, tool: string): McpAppFields | undefined {
    return this.find(scope, tool)?.fields;
  }

  /** The same as JSON members to append to an item's text ('' when none). */
  text(scope: RegistrationScope, tool: string): string {
    return this.find(scope, tool)?.text ?? '';
  }

  private find(scope: RegistrationScope, tool: string): Indexed | undefined {
    const tools = this.tools();
    if (tools !== this.indexedFor) this.index(tools);
    return this.byTool.get(`${scopeKey(scope)}\u0000${tool}`);
  }

  private index(tools: readonly InventoryTool[]): void {
    this.indexedFor = tools;
    this.byTool = new Map();
    for (const t of tools) {
      const meta = t.tool['_meta'];
      const resourceUri = toolUiResourceUri(meta);
      if (resourceUri === undefined) continue;
      const fields: McpAppFields = {
        mcpAppResourceUri: resourceUri,
        mcpAppUi: { preferredModelDisplayMode: displayMode(meta), resourceUri },
      };
      const text = `,"mcpAppResourceUri":${JSON.stringify(resourceUri)},"mcpAppUi":${JSON.stringify(fields.mcpAppUi)}`;
      this.byTool.set(`${scopeKey(t.scope)}\u0000${t.tool.name}`, { fields, text });
    }
  }
}

function displayMode(meta: unknown): 'inline' | 'fullscreen' {
  const openai = (meta as Record<string, unknown> | undefined)?.['openai/ui'];
  const mode =
    typeof openai === 'object' && openai !== null
      ? (openai as Record<string, unknown>)['preferredModelDisplayMode']
      : undefined;
  return mode === 'fullscreen' ? 'fullscreen' : 'inline';
}
