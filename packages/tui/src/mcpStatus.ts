/**
 * `@mcprt/tui/mcpStatus`: the `/mcp` view model without the terminal UI (no Ink, no React), for
 * other front ends that show registrations the same way — the CLI's `mcprt status`.
 */

export { connectionLabel, groupByScope, rowSummary } from './model/mcpStatus.js';
export type { ConnectionState, StatusLabel, StatusRow } from './model/mcpStatus.js';
