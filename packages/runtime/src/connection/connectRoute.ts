/**
 * Which handshake one connection attempt uses, and what to try after it fails
 * (docs/adr/0018-revision-probe.md). The first attempt follows the scope's remembered verdict
 * (revisionVerdicts.ts) when there is one — a fresh 2026 discover result adopted with
 * `connect({ prior })`, a stale one re-read by pinning its revision, a 2025 verdict skipping the
 * probe — else `protocol_version` as configured. A remembered route that fails for any reason
 * but a timeout is forgotten and followed by a fresh probe (the server may have been upgraded or
 * downgraded); a stdio server that exited on the in-place `server/discover` probe (servers that
 * terminate on any message before `initialize` do) is respawned once with the 2025 handshake.
 */

import type {
  Client,
  PriorDiscovery,
  VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import { versionNegotiation } from './protocolVersion.js';
import type { VerdictSlot } from './revisionVerdicts.js';

export interface ConnectRoute {
  /** The client's negotiation: as configured, or pinned to a remembered revision. */
  readonly negotiation: VersionNegotiationOptions;
  /** A remembered verdict for `connect({ prior })`: no probe. */
  readonly prior?: PriorDiscovery;
  /** Taken from a remembered verdict (its failure forgets it and probes afresh). */
  readonly remembered: boolean;
  /** The outcome is a new verdict worth remembering (a probe ran, or the legacy respawn). */
  readonly records: boolean;
  /** The one legacy respawn after a stdio server exited on the probe. */
  readonly respawn: boolean;
}

/** The route of a first attempt: the scope's remembered verdict, else the configuration. */
export function firstRoute(config: ServerConfig, slot: VerdictSlot | undefined): ConnectRoute {
  const configured = versionNegotiation(config);
  const fresh: ConnectRoute = {
    negotiation: configured,
    remembered: false,
    // Under the plain 2025 setting nothing is learnt about the server.
    records: config.protocolVersion !== '2025-11-25',
    respawn: false,
  };
  const verdict = config.protocolVersion === '2025-11-25' ? undefined : slot?.get();
  if (!verdict) return fresh;
  if (verdict.era === 'legacy') {
    return config.protocolVersion === 'auto'
      ? { ...fresh, prior: { kind: 'legacy' }, remembered: true, records: false }
      : fresh;
  }
  if (config.protocolVersion !== 'auto' && config.protocolVersion !== verdict.version) return fresh;
  if (slot?.fresh(verdict)) {
    return {
      ...fresh,
      prior: { kind: 'modern', discover: verdict.discover },
      remembered: true,
      records: false,
    };
  }
  // Stale discover result: read it again, at the revision the scope speaks.
  return {
    ...fresh,
    negotiation: { ...configured, mode: { pin: verdict.version } },
    remembered: true,
  };
}

/**
 * What to try after `route` failed with `error` (`exited`: the stdio server process has ended),
 * or null: the failure stands.
 */
export function nextRoute(
  config: ServerConfig,
  route: ConnectRoute,
  error: unknown,
  exited: boolean,
): ConnectRoute | null {
  if (isTimeout(error)) return null;
  if (route.remembered) return firstRoute(config, undefined);
  if (
    !route.respawn &&
    exited &&
    config.protocolVersion === 'auto' &&
    config.transport.type === 'stdio' &&
    route.prior === undefined &&
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed
  ) {
    return {
      negotiation: versionNegotiation(config),
      prior: { kind: 'legacy' },
      remembered: false,
      records: true,
      respawn: true,
    };
  }
  return null;
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'REQUEST_TIMEOUT' || code === SdkErrorCode.RequestTimeout;
}

/** Remember the revision `client` negotiated, for the scope's next start. */
export function recordVerdict(slot: VerdictSlot, client: Client): void {
  const version = client.getNegotiatedProtocolVersion();
  if (version === undefined) return;
  if (client.getProtocolEra() !== 'modern') {
    slot.record({ version, discover: undefined });
    return;
  }
  const discover = client.getDiscoverResult();
  if (discover) slot.record({ version, discover });
}
