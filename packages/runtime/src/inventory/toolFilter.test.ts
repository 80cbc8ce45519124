// enabled_tools / disabled_tools with exact names (Codex's meaning) and globs: which tools pass,
// and the reason named when one does not.
import { describe, expect, it, vi } from 'vitest';

import { compileGlob } from '../config/glob.js';
import type * as GlobModule from '../config/glob.js';
import { isToolEnabled, toolFilterReason } from './toolFilter.js';
import type { ToolPolicy } from './toolFilter.js';

// Counts compilations (the real matcher runs).
vi.mock('../config/glob.js', async (importOriginal) => {
  const real = await importOriginal<typeof GlobModule>();
  return { ...real, compileGlob: vi.fn(real.compileGlob) };
});

const policy = (
  enabledTools: readonly string[] | null,
  disabledTools: readonly string[] | null,
): ToolPolicy => ({ enabledTools, disabledTools });

describe('tool filters', () => {
  it('no lists: every tool is enabled', () => {
    const p = policy(null, null);
    expect(isToolEnabled(p, 'anything')).toBe(true);
    expect(toolFilterReason(p, 'anything')).toBeNull();
  });

  it('exact names keep their meaning: allow-list first, deny-list after', () => {
    const p = policy(['echo', 'env', 'a[b]'], ['env']);
    expect(isToolEnabled(p, 'echo')).toBe(true);
    expect(isToolEnabled(p, 'a[b]')).toBe(true);
    expect(isToolEnabled(p, 'ab')).toBe(false);
    expect(isToolEnabled(p, 'env')).toBe(false);
    expect(isToolEnabled(p, 'sleep')).toBe(false);
    expect(toolFilterReason(p, 'echo')).toBeNull();
    expect(toolFilterReason(p, 'env')).toBe('listed in disabled_tools');
    expect(toolFilterReason(p, 'sleep')).toBe('not in enabled_tools');
    expect(toolFilterReason(p, 'ab')).toBe('not in enabled_tools');
  });

  it('an empty allow-list enables nothing; an empty deny-list disables nothing', () => {
    expect(isToolEnabled(policy([], null), 'echo')).toBe(false);
    expect(isToolEnabled(policy(null, []), 'echo')).toBe(true);
  });

  it('globs in disabled_tools name the pattern that disabled the tool', () => {
    const p = policy(null, ['delete_*', 'drop', 'v?_reset']);
    expect(isToolEnabled(p, 'delete_repo')).toBe(false);
    expect(isToolEnabled(p, 'get_repo')).toBe(true);
    expect(isToolEnabled(p, 'v1_reset')).toBe(false);
    expect(isToolEnabled(p, 'v10_reset')).toBe(true);
    expect(toolFilterReason(p, 'delete_repo')).toBe('disabled_tools pattern `delete_*`');
    expect(toolFilterReason(p, 'v1_reset')).toBe('disabled_tools pattern `v?_reset`');
    expect(toolFilterReason(p, 'drop')).toBe('listed in disabled_tools');
    expect(toolFilterReason(p, 'get_repo')).toBeNull();
  });

  it('globs in enabled_tools allow every match; the deny-list still applies after', () => {
    const p = policy(['get_*', 'list_*', 'whoami'], ['get_secret*']);
    expect(isToolEnabled(p, 'get_repo')).toBe(true);
    expect(isToolEnabled(p, 'list_issues')).toBe(true);
    expect(isToolEnabled(p, 'whoami')).toBe(true);
    expect(isToolEnabled(p, 'delete_repo')).toBe(false);
    expect(isToolEnabled(p, 'get_secret_value')).toBe(false);
    expect(toolFilterReason(p, 'delete_repo')).toBe('not in enabled_tools');
    expect(toolFilterReason(p, 'get_secret_value')).toBe('disabled_tools pattern `get_secret*`');
  });

  it('an exact entry is named before a pattern that also matches', () => {
    expect(toolFilterReason(policy(null, ['*', 'rm']), 'rm')).toBe('listed in disabled_tools');
    expect(toolFilterReason(policy(null, ['*', 'rm']), 'ls')).toBe('disabled_tools pattern `*`');
  });

  it('characters other than `*` and `?` are literal in a pattern', () => {
    const p = policy(null, ['a.b*', 'f(*)']);
    expect(isToolEnabled(p, 'a.bc')).toBe(false);
    expect(isToolEnabled(p, 'axbc')).toBe(true);
    expect(isToolEnabled(p, 'f(x)')).toBe(false);
    expect(isToolEnabled(p, 'fx')).toBe(true);
  });

  it('compiles each list once and reuses it for every check', () => {
    const compile = vi.mocked(compileGlob);
    compile.mockClear();
    const list = ['delete_*', 'drop_?', 'exact'];
    const p = policy(null, list);
    for (let i = 0; i < 100; i++) isToolEnabled(p, `tool_${i}`);
    expect(toolFilterReason(p, 'delete_x')).toBe('disabled_tools pattern `delete_*`');
    // A copy of the policy shares the arrays, so it shares the compiled list too.
    expect(isToolEnabled({ ...p }, 'drop_1')).toBe(false);
    expect(compile.mock.calls.map((c) => c[0])).toEqual(['delete_*', 'drop_?']);
  });
});
