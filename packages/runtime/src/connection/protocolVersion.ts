/**
 * `protocol_version` (config) → the SDK client's `versionNegotiation`: `auto` probes with
 * `server/discover` (2026-07-28) and falls back to the 2025 `initialize` handshake, a dated
 * 2026 revision is pinned (no fallback: a server without it fails loudly), and `2025-11-25` is
 * the plain legacy handshake (no probe, no 2026 headers). The probe and the handshake share the
 * startup timeout: on stdio, where a silent probe means a 2025 server, the probe gets at most
 * half of it (10 s at most), so `initialize` keeps the rest; over HTTP silence is an outage and
 * the probe may use all of it.
 */

import type { VersionNegotiationOptions } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';

const MAX_STDIO_PROBE_MS = 10_000;

export function versionNegotiation(config: ServerConfig): VersionNegotiationOptions {
  const setting = config.protocolVersion;
  switch (setting) {
    case 'auto':
      return config.transport.type === 'stdio'
        ? {
            mode: 'auto',
            probe: {
              timeoutMs: Math.max(1, Math.min(config.startupTimeoutMs / 2, MAX_STDIO_PROBE_MS)),
            },
          }
        : { mode: 'auto' };
    case '2025-11-25':
      return { mode: 'legacy' };
    default:
      return { mode: { pin: setting } };
  }
}

/**
 * The handshake did not finish within the startup timeout (`cause`: how it ended). Its code is
 * the SDK's request-timeout code, so it is reported as Codex's startup timeout.
 */
export class HandshakeTimeout extends Error {
  readonly code = 'REQUEST_TIMEOUT';
}

/**
 * Run the connect handshake (the 2026 probe, then `initialize` when it falls back) as one
 * startup phase: past `timeoutMs` it is aborted and fails with `HandshakeTimeout`.
 */
export async function handshake(
  timeoutMs: number,
  signal: AbortSignal,
  connect: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    await connect(AbortSignal.any([signal, deadline.signal]));
  } catch (error) {
    if (deadline.signal.aborted && !signal.aborted)
      throw new HandshakeTimeout('handshake timed out', { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
