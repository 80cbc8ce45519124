/**
 * `protocol_version` (config) → the SDK client's `versionNegotiation`: `auto` probes with
 * `server/discover` (2026-07-28) and falls back to the 2025 `initialize` handshake, a dated
 * 2026 revision is pinned (no fallback: a server without it fails loudly), and `2025-11-25` is
 * the plain legacy handshake (no probe, no 2026 headers).
 */

import type { VersionNegotiationOptions } from '@modelcontextprotocol/client';

import type { ProtocolVersionSetting } from '../config/types.js';

export function versionNegotiation(setting: ProtocolVersionSetting): VersionNegotiationOptions {
  switch (setting) {
    case 'auto':
      return { mode: 'auto' };
    case '2025-11-25':
      return { mode: 'legacy' };
    default:
      return { mode: { pin: setting } };
  }
}
