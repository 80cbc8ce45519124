import type { StartupStatusEvent, ToolCallCompleted, ToolCallStarted } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { startupNotification, toolCallItem } from './threadEvents.js';

const started: ToolCallStarted = {
  id: 'call_1',
  threadId: 't',
  scope: { environmentId: 'box', name: 'docs' },
  server: 'docs',
  environmentId: 'box',
  tool: 'search',
  arguments: { q: 'x' },
  startedAt: 1_000,
};

describe('toolCallItem', () => {
  it("is Codex's in-progress mcpToolCall item, carrying environmentId", () => {
    expect(toolCallItem(started)).toEqual({
      type: 'mcpToolCall',
      id: 'call_1',
      server: 'docs',
      tool: 'search',
      status: 'inProgress',
      arguments: { q: 'x' },
      environmentId: 'box',
      result: null,
      error: null,
      durationMs: null,
    });
  });

  it('keeps content, structuredContent and _meta of a result; an isError call is failed', () => {
    const done: ToolCallCompleted = {
      ...started,
      status: 'failed',
      result: { content: [{ type: 'text', text: 'no' }], isError: true, _meta: { k: 1 }, extra: 2 },
      error: null,
      durationMs: 12,
    };
    expect(toolCallItem(done)).toMatchObject({
      status: 'failed',
      result: { content: [{ type: 'text', text: 'no' }], _meta: { k: 1 } },
      error: null,
      durationMs: 12,
    });
    expect(toolCallItem(done).result).not.toHaveProperty('extra');
    const thrown: ToolCallCompleted = { ...done, result: null, error: 'timed out' };
    expect(toolCallItem(thrown)).toMatchObject({ result: null, error: { message: 'timed out' } });
  });
});

describe('startupNotification', () => {
  it('says reauthenticationRequired for an authentication failure only', () => {
    const event: StartupStatusEvent = {
      threadId: 't',
      scope: { environmentId: null, name: 'web' },
      name: 'web',
      environmentId: null,
      status: 'failed',
      error: 'not logged in',
      failureKind: 'authentication',
    };
    expect(startupNotification(event)).toEqual({
      threadId: 't',
      name: 'web',
      environmentId: null,
      status: 'failed',
      error: 'not logged in',
      failureReason: 'reauthenticationRequired',
    });
    expect(startupNotification({ ...event, failureKind: 'exited' }).failureReason).toBeNull();
  });
});
