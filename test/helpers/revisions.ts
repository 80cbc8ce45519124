/**
 * A home whose servers speak different MCP protocol revisions, for the tests that check each
 * surface reports the negotiated one: `shared` in two exec environments — 2026-only in `new`
 * (modern-server.mjs, which refuses the 2025 handshake), 2025-only in `old` (the echo fixture) —
 * a dual-era server pinned to 2025-11-25 (`pinned`), and a disabled one (`off`: no revision).
 */

import { join } from 'node:path';

import { arr, echoServer, FIXTURES, NODE, shExecEnvironment, tempDir } from './fixtures.js';

export const MODERN_SERVER = join(FIXTURES, 'modern-server.mjs');

/** `[table]` for the 2026 fixture server; `legacy = 'serve'` makes it dual-era. */
export function modernServer(table: string, name: string, extra = '', legacy = 'reject'): string {
  return `[${table}]\ncommand = ${JSON.stringify(NODE)}\nargs = ${arr([MODERN_SERVER, '--name', name, '--legacy', legacy])}\nstartup_timeout_sec = 20\n${extra}\n`;
}

export function mixedRevisionsConfig(): string {
  const cwd = tempDir('mcprt-rev-cwd-');
  return (
    modernServer('mcp_servers.pinned', 'pinned', 'protocol_version = "2025-11-25"', 'serve') +
    echoServer('mcp_servers.off', 'off', 'enabled = false') +
    shExecEnvironment('new', cwd) +
    modernServer('environments.new.mcp_servers.shared', 'shared-new') +
    shExecEnvironment('old', cwd) +
    echoServer('environments.old.mcp_servers.shared', 'shared-old')
  );
}

/** What each registration (`name@env`) reports: the negotiated revision, or none. */
export const EXPECTED_REVISIONS: Readonly<Record<string, string | undefined>> = {
  pinned: '2025-11-25',
  off: undefined,
  'shared@new': '2026-07-28',
  'shared@old': '2025-11-25',
};

export const label = (s: { name: string; environmentId: string | null }): string =>
  s.environmentId === null ? s.name : `${s.name}@${s.environmentId}`;
