import { describe, expect, it } from 'vitest';

import { connectionLabel, groupByScope, rowSummary } from './mcpStatus.js';

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
