/**
 * The TUI's `/mcp verbose` names the MCP protocol revision each registration negotiated (from the
 * app-server's `protocolVersion`): a 2026-only server and a 2025-only one sharing a name in two
 * environments, a dual-era server pinned to 2025-11-25, and a disabled server (no Protocol line).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expectFits } from '../../packages/tui/src/testing/render.js';
import { mixedRevisionsConfig } from '../helpers/revisions.js';
import type { TuiUnderTest } from './harness.js';
import { startTui } from './harness.js';

const COLUMNS = 60;

/** The verbose block of one registration: its line up to the next registration's. */
function block(verbose: string, label: string): string {
  const start = verbose.indexOf(`  • ${label}: `);
  expect(start, label).toBeGreaterThanOrEqual(0);
  const next = verbose.indexOf('  • ', start + 4);
  return verbose.slice(start, next < 0 ? undefined : next);
}

describe('/mcp verbose and protocol revisions', () => {
  let tui: TuiUnderTest;
  beforeAll(async () => {
    tui = await startTui(mixedRevisionsConfig(), COLUMNS);
  });
  afterAll(async () => {
    await tui?.close();
  });

  it('shows the negotiated revision per registration scope', { timeout: 60_000 }, async () => {
    await tui.waitForFrame(
      (f) =>
        f.includes('• pinned: connected') &&
        f.includes('• shared@new: connected') &&
        f.includes('• shared@old: connected'),
      '/mcp settled',
      40_000,
    );
    await tui.run('/mcp verbose');
    const frame = await tui.waitForFrame(
      (f) => f.includes('/mcp verbose\nthread-wide'),
      '/mcp verbose',
    );
    const verbose = frame.slice(frame.lastIndexOf('/mcp verbose\nthread-wide'));
    expect(block(verbose, 'shared@new')).toContain('      Protocol: MCP 2026-07-28\n');
    expect(block(verbose, 'shared@old')).toContain('      Protocol: MCP 2025-11-25\n');
    expect(block(verbose, 'pinned')).toContain('      Protocol: MCP 2025-11-25\n');
    expect(block(verbose, 'off')).not.toContain('Protocol:');
    expectFits(frame, COLUMNS);
  });
});
