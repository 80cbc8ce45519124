import { describe, expect, it } from 'vitest';

import type { ToolCost } from './mcpStatus.js';
import {
  connectionLabel,
  groupByScope,
  rowSummary,
  toolCostSummary,
  toolCostWarning,
} from './mcpStatus.js';

describe('the /mcp view model', () => {
  it('summarises a row as name@env, label, tool count, where it runs and restarts', () => {
    expect(
      rowSummary({ name: 'docs', environmentId: null, label: 'connected', toolCount: 1 }),
    ).toEqual({ name: 'docs', suffix: ': connected (1 tool)' });
    expect(
      rowSummary({
        name: 'shell',
        environmentId: null,
        label: 'connected',
        toolCount: 3,
        executionEnvironmentId: 'devbox',
        restartCount: 2,
      }),
    ).toEqual({ name: 'shell', suffix: ': connected (3 tools) [runs in devbox] [restarted 2×]' });
    expect(
      rowSummary({
        name: 'shell',
        environmentId: 'devbox',
        label: 'failed',
        toolCount: null,
        executionEnvironmentId: 'devbox',
        restartCount: 0,
      }),
    ).toEqual({ name: 'shell@devbox', suffix: ': failed' });
  });

  it('adds the tools’ tokens when known, not for a server without tools', () => {
    const row = { name: 'docs', environmentId: 'a', label: 'connected' as const };
    expect(rowSummary({ ...row, toolCount: 2, tokens: 85 }).suffix).toBe(
      ': connected (2 tools, 85 tokens)',
    );
    expect(rowSummary({ ...row, toolCount: 0, tokens: 0 }).suffix).toBe(': connected (0 tools)');
    expect(rowSummary({ ...row, toolCount: 2, tokens: null }).suffix).toBe(': connected (2 tools)');
  });

  it('summarises what a view costs, and warns when it is over its threshold with search off', () => {
    const review: ToolCost = {
      view: 'review',
      tools: 4,
      allTokens: 175,
      searchTokens: 461,
      thresholdTokens: 50,
      searching: false,
      overThreshold: true,
    };
    expect(toolCostSummary(review)).toBe(
      'view `review`: 4 tools, 175 tokens with tool search off, 461 with it on; search is off',
    );
    expect(toolCostWarning(review)).toBe(
      'warning: view `review` lists 175 tokens of tool definitions, over its tool_search_threshold_tokens of 50; set tool_search = "auto"',
    );
    const searching = { ...review, tools: 1, searching: true, overThreshold: false };
    expect(toolCostSummary(searching)).toBe(
      'view `review`: 1 tool, 175 tokens with tool search off, 461 with it on; search is on',
    );
    expect(toolCostWarning(searching)).toBeNull();
  });

  it('suggests a view when the whole inventory passes 10,000 tokens', () => {
    const all: ToolCost = {
      view: null,
      tools: 300,
      allTokens: 10_000,
      searchTokens: 386,
      thresholdTokens: null,
      searching: false,
      overThreshold: false,
    };
    expect(toolCostSummary(all)).toBe(
      'all tools (no view): 300 tools, 10000 tokens with tool search off, 386 with it on; search is off',
    );
    expect(toolCostWarning(all)).toBeNull();
    expect(toolCostWarning({ ...all, allTokens: 10_001 })).toBe(
      'note: the whole inventory lists 10001 tokens of tool definitions, over 10000; define a [views.NAME] with tool_search = "auto" and use it (--view NAME)',
    );
  });

  it('names every connection state with Codex labels', () => {
    expect(connectionLabel('authenticationRequired')).toBe('authentication required');
    expect(connectionLabel('notStarted')).toBe('not started');
    expect(connectionLabel('connected')).toBe('connected');
  });

  it('groups thread-wide first, then the environment order, then unknown environments', () => {
    const row = (name: string, environmentId: string | null) => ({ name, environmentId });
    const groups = groupByScope(
      [row('b', 'x'), row('zeta', null), row('a', 'y'), row('Alpha', null), row('c', 'late')],
      ['local', 'y', 'x'],
    );
    expect(groups.map((g) => [g.environmentId, g.items.map((i) => i.name)])).toEqual([
      [null, ['Alpha', 'zeta']],
      ['y', ['a']],
      ['x', ['b']],
      ['late', ['c']],
    ]);
  });
});
