/**
 * `enabled_tools` / `disabled_tools`: both match raw MCP tool names; the allow-list applies
 * first, the deny-list after it. Pure logic.
 */

export interface ToolPolicy {
  readonly enabledTools: readonly string[] | null;
  readonly disabledTools: readonly string[] | null;
}

export function isToolEnabled(policy: ToolPolicy, tool: string): boolean {
  if (policy.enabledTools !== null && !policy.enabledTools.includes(tool)) return false;
  return !(policy.disabledTools !== null && policy.disabledTools.includes(tool));
}
