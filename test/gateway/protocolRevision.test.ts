/**
 * `mcprt serve`'s status resource (`mcprt://gateway/status`) names the MCP protocol revision each
 * registration negotiated: a 2026-only server and a 2025-only one sharing a name in two
 * environments, a dual-era server pinned to 2025-11-25, and a disabled server (null).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome } from '../helpers/fixtures.js';
import { EXPECTED_REVISIONS, mixedRevisionsConfig } from '../helpers/revisions.js';
import type { GatewayClient } from './helpers.js';
import { stdioGateway } from './helpers.js';

interface StatusEntry {
  label: string;
  startupStatus: string | null;
  protocolVersion: string | null;
}

let gateway: GatewayClient;
beforeAll(async () => {
  gateway = await stdioGateway(makeHome(mixedRevisionsConfig()), 'auto');
});
afterAll(async () => {
  await gateway?.close();
});

async function statusDocument(): Promise<StatusEntry[]> {
  const read = await gateway.client.readResource({ uri: 'mcprt://gateway/status' });
  return (JSON.parse((read.contents[0] as { text: string }).text) as { servers: StatusEntry[] })
    .servers;
}

describe('the gateway status resource', () => {
  it('reports the negotiated revision per registration scope', { timeout: 60_000 }, async () => {
    let servers = await statusDocument();
    const deadline = Date.now() + 40_000;
    while (servers.filter((s) => s.startupStatus === 'ready').length < 3) {
      expect(Date.now(), JSON.stringify(servers)).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
      servers = await statusDocument();
    }
    expect(
      Object.fromEntries(servers.map((s) => [s.label, s.protocolVersion ?? undefined])),
    ).toEqual(EXPECTED_REVISIONS);
    expect(servers.find((s) => s.label === 'off')!.protocolVersion).toBeNull();
  });
});
