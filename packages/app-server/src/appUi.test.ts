/** Unit tests: a call item's MCP App fields, found in the inventory and encoded like the object form. */

import type { InventoryTool, ToolCallCompleted } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { AppUiLookup } from './appUi.js';
import { toolCallItem } from './threadEvents.js';
import { ToolCallEncoder } from './toolCallText.js';

const box = { environmentId: 'box', name: 'apps' };
const tool = (name: string, meta?: unknown): InventoryTool => ({
  scope: box,
  modelName: `mcp__box__apps__${name}`,
  tool: { name, inputSchema: {}, ...(meta === undefined ? {} : { _meta: meta }) } as never,
});

describe('AppUiLookup', () => {
  const tools = [
    tool('show', {
      ui: { resourceUri: 'ui://d/a.html' },
      'openai/ui': { preferredModelDisplayMode: 'fullscreen' },
    }),
    tool('flat', { 'ui/resourceUri': 'ui://d/"b".html' }),
    tool('plain'),
  ];
  const lookup = new AppUiLookup(() => tools);

  it('names the resource and the display mode (Codex reads it from openai/ui)', () => {
    expect(lookup.fields(box, 'show')).toEqual({
      mcpAppResourceUri: 'ui://d/a.html',
      mcpAppUi: { preferredModelDisplayMode: 'fullscreen', resourceUri: 'ui://d/a.html' },
    });
    expect(lookup.fields(box, 'flat')?.mcpAppUi.preferredModelDisplayMode).toBe('inline');
    expect(lookup.fields(box, 'plain')).toBeUndefined();
    expect(lookup.fields({ environmentId: null, name: 'apps' }, 'show')).toBeUndefined();
  });

  it('encodes item/completed exactly as JSON.stringify of the object form', () => {
    const encoder = new ToolCallEncoder((e) => lookup.text(e.scope, e.tool));
    for (const name of ['show', 'flat', 'plain']) {
      const e: ToolCallCompleted = {
        id: `call_${name}`,
        threadId: 't',
        scope: box,
        server: 'apps',
        environmentId: 'box',
        tool: name,
        arguments: null,
        startedAt: 1,
        status: 'completed',
        result: { content: [] },
        error: null,
        durationMs: 2,
      };
      const item = toolCallItem(e, lookup.fields(box, name));
      expect(encoder.completed(e)).toBe(
        JSON.stringify({ threadId: 't', turnId: e.id, item, completedAtMs: 3 }),
      );
    }
  });
});
