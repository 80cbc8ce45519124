/**
 * `@mcprt/tui/mcpStatus`: the `/mcp` view model without the terminal UI (no Ink, no React), for
 * other front ends that show registrations and tool costs the same way — the CLI's `mcprt
 * status` and `mcprt tools`.
 */

export {
  connectionLabel,
  groupByScope,
  INVENTORY_NOTE_TOKENS,
  rowSummary,
  toolCostSummary,
  toolCostWarning,
} from './model/mcpStatus.js';
export type { ConnectionState, StatusLabel, StatusRow, ToolCost } from './model/mcpStatus.js';
