// Which handshake a connection attempt uses (connectRoute.ts) from what the scope remembers
// (revisionVerdicts.ts, with a clock we own), and how refusals read (protocolRefusal.ts) for
// the SDK's real error classes, configs parsed from TOML.
import {
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
import type { DiscoverResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../config/load.js';
import type { ServerConfig } from '../config/types.js';
import { firstRoute, nextRoute } from './connectRoute.js';
import { describeRefusal } from './protocolRefusal.js';
import { LEGACY_VERDICT_MAX_AGE_MS, RevisionVerdicts } from './revisionVerdicts.js';

function server(table: string): ServerConfig {
  const config = loadConfig({ file: '/nonexistent/config.toml', text: table });
  const found = config.servers[0];
  if (!found) throw new Error(`no server in ${table}`);
  return found;
}
const stdio = (version: string) =>
  server(`[mcp_servers.s]\ncommand = "node"\nprotocol_version = "${version}"\n`);
const discover = (ttlMs: number): DiscoverResult =>
  ({
    supportedVersions: ['2026-07-28'],
    capabilities: {},
    ttlMs,
    cacheScope: 'private',
  }) as DiscoverResult;

describe('remembered verdicts choose the first route', () => {
  let now = 1_000;
  const verdicts = new RevisionVerdicts(() => now);
  const scope = { environmentId: null, name: 's' };

  it('probes as configured when nothing is remembered', () => {
    const route = firstRoute(stdio('auto'), verdicts.slot(scope, 'a'));
    expect(route).toMatchObject({ remembered: false, records: true });
    expect(route.prior).toBeUndefined();
    expect(route.negotiation.mode).toBe('auto');
  });

  it('adopts a 2026 discover result within its ttlMs, pins its revision after', () => {
    const slot = verdicts.slot(scope, 'b');
    slot.record({ version: '2026-07-28', discover: discover(500) });
    expect(firstRoute(stdio('auto'), slot)).toMatchObject({
      prior: { kind: 'modern', discover: discover(500) },
      remembered: true,
      records: false,
    });
    now += 500;
    const stale = firstRoute(stdio('auto'), slot);
    expect(stale.prior).toBeUndefined();
    expect(stale).toMatchObject({
      remembered: true,
      records: true,
      negotiation: { mode: { pin: '2026-07-28' } },
    });
    // Another launch identity of the same scope knows nothing.
    expect(firstRoute(stdio('auto'), verdicts.slot(scope, 'c')).remembered).toBe(false);
  });

  it('skips the probe for a 2025 verdict for an hour, and never under a pin or 2025-11-25', () => {
    const slot = verdicts.slot(scope, 'd');
    slot.record({ version: '2025-11-25', discover: undefined });
    expect(firstRoute(stdio('auto'), slot)).toMatchObject({
      prior: { kind: 'legacy' },
      remembered: true,
    });
    expect(firstRoute(stdio('2026-07-28'), slot).remembered).toBe(false);
    expect(firstRoute(stdio('2025-11-25'), slot)).toMatchObject({
      remembered: false,
      records: false,
    });
    now += LEGACY_VERDICT_MAX_AGE_MS;
    expect(firstRoute(stdio('auto'), slot).remembered).toBe(false);
  });

  it('forgets a scope on new credentials', () => {
    const slot = verdicts.slot(scope, 'e');
    slot.record({ version: '2025-11-25', discover: undefined });
    verdicts.forgetScope({ environmentId: 'other', name: 's' });
    expect(slot.get()).toBeDefined();
    verdicts.forgetScope(scope);
    expect(slot.get()).toBeUndefined();
  });
});

describe('after a failed attempt', () => {
  const closed = new SdkError(
    SdkErrorCode.EraNegotiationFailed,
    'Version negotiation failed: the connection closed during the server/discover probe',
  );

  it('respawns with the 2025 handshake once when a stdio server exited on the probe', () => {
    const config = stdio('auto');
    const first = firstRoute(config, undefined);
    const respawn = nextRoute(config, first, closed, true);
    expect(respawn).toMatchObject({ prior: { kind: 'legacy' }, respawn: true, records: true });
    expect(nextRoute(config, respawn!, closed, true)).toBeNull();
    // Not without an exit, not pinned, not over HTTP.
    expect(nextRoute(config, first, closed, false)).toBeNull();
    expect(
      nextRoute(stdio('2026-07-28'), firstRoute(stdio('2026-07-28'), undefined), closed, true),
    ).toBeNull();
    const http = server('[mcp_servers.w]\nurl = "http://127.0.0.1:9/mcp"\n');
    expect(nextRoute(http, firstRoute(http, undefined), closed, true)).toBeNull();
  });

  it('probes afresh after a remembered route failed, except on a timeout', () => {
    const config = stdio('auto');
    const remembered = {
      ...firstRoute(config, undefined),
      prior: { kind: 'legacy' as const },
      remembered: true,
    };
    expect(nextRoute(config, remembered, new Error('boom'), false)).toMatchObject({
      remembered: false,
      records: true,
    });
    const timeout = Object.assign(new Error('handshake timed out'), { code: 'REQUEST_TIMEOUT' });
    expect(nextRoute(config, remembered, timeout, false)).toBeNull();
  });
});

describe('refusal texts', () => {
  const contributed = server(
    '[environments.box]\ntype = "exec"\nprogram = "sh"\n\n[environments.box.mcp_servers.m]\ncommand = "node"\nprotocol_version = "2025-11-25"\n',
  );

  it('reads -32022 from the SDK error, its cause, or an HTTP error body', () => {
    const refused = new UnsupportedProtocolVersionError({
      supported: ['2026-07-28'],
      requested: '2025-11-25',
    });
    const expected =
      'server refused protocol revision 2025-11-25; it supports 2026-07-28 (set protocol_version = "auto" or "2026-07-28" for m@box)';
    expect(describeRefusal(contributed, refused)).toBe(expected);
    expect(describeRefusal(contributed, new Error('wrapped', { cause: refused }))).toBe(expected);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2025-11-25',
        data: { supported: ['2026-07-28'], requested: '2025-11-25' },
      },
    });
    const http = new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      `Error POSTing to endpoint: ${body}`,
      {
        status: 400,
        statusText: 'Bad Request',
        text: body,
      },
    );
    expect(describeRefusal(contributed, http)).toBe(expected);
  });

  it('is not a refusal: other errors, an unparsable body, a negotiation failure under auto', () => {
    const config = stdio('auto');
    expect(describeRefusal(config, new Error('Connection closed'))).toBeNull();
    const http = new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      'Error POSTing to endpoint: <html>',
      {
        status: 400,
        statusText: 'Bad Request',
        text: '<html>',
      },
    );
    expect(describeRefusal(config, http)).toBeNull();
    const failed = new SdkError(SdkErrorCode.EraNegotiationFailed, 'Version negotiation failed: x');
    expect(describeRefusal(config, failed)).toBeNull();
    expect(describeRefusal(stdio('2026-07-28'), failed)).toBe(
      'server does not speak 2026-07-28 (its server/discover did not offer it; set protocol_version = "auto" or "2025-11-25" for s@local)',
    );
  });
});
