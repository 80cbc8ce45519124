/**
 * A server that refused the protocol revision we spoke, said as what it is instead of its side
 * effects ("exited during initialize", "Error POSTing to endpoint … -32022"): the SDK's
 * `UnsupportedProtocolVersionError` (`-32022`, data `{supported, requested}`), the same error
 * in an HTTP error body, and a pinned 2026 revision the server's `server/discover` did not offer
 * (or a probe it died on). The text names the server and its environment and says which
 * `protocol_version` fixes it.
 */

import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';

const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** `name@environment` of the server whose `protocol_version` is meant. */
export function serverAtEnvironment(config: ServerConfig): string {
  return `${config.scope.name}@${config.scope.environmentId ?? config.executionEnvironmentId}`;
}

/**
 * The refusal `error` describes, as a sentence for people, or null when it is not one.
 * `requested` is what we offered when the error does not say.
 */
export function describeRefusal(config: ServerConfig, error: unknown): string | null {
  const where = serverAtEnvironment(config);
  const unsupported = findUnsupported(error);
  if (unsupported) {
    const requested = unsupported.requested ?? offered(config);
    const supported = unsupported.supported;
    const modern = supported.find((v) => v >= '2026');
    const fix = modern
      ? `set protocol_version = "auto" or "${modern}" for ${where}`
      : `set protocol_version = "auto"${supported[0] ? ` or "${supported[0]}"` : ''} for ${where}`;
    const it = supported.length > 0 ? `; it supports ${supported.join(', ')}` : '';
    return `server refused protocol revision ${requested}${it} (${fix})`;
  }
  const pin = config.protocolVersion;
  if (
    pin !== 'auto' &&
    pin !== '2025-11-25' &&
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed
  ) {
    const how = /closed during the server\/discover probe/.test(error.message)
      ? 'it closed the connection on the server/discover probe'
      : 'its server/discover did not offer it';
    return `server does not speak ${pin} (${how}; set protocol_version = "auto" or "2025-11-25" for ${where})`;
  }
  return null;
}

/** The revision a connection offered first. */
function offered(config: ServerConfig): string {
  return config.protocolVersion === 'auto' ? '2026-07-28' : config.protocolVersion;
}

interface Unsupported {
  readonly supported: string[];
  readonly requested: string | undefined;
}

/** A `-32022` in `error`, its causes, or an HTTP error body. */
function findUnsupported(error: unknown): Unsupported | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === UNSUPPORTED_PROTOCOL_VERSION) return fromData((e as { data?: unknown }).data);
    if (e instanceof SdkHttpError) {
      const body = (e.data as { text?: unknown } | undefined)?.text;
      const rpc = typeof body === 'string' ? parseErrorBody(body) : null;
      if (rpc) return rpc;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function parseErrorBody(body: string): Unsupported | null {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; data?: unknown } };
    return parsed.error?.code === UNSUPPORTED_PROTOCOL_VERSION ? fromData(parsed.error.data) : null;
  } catch {
    return null;
  }
}

function fromData(data: unknown): Unsupported {
  const d = (data ?? {}) as { supported?: unknown; requested?: unknown };
  const supported = Array.isArray(d.supported)
    ? d.supported.filter((v): v is string => typeof v === 'string')
    : [];
  return { supported, requested: typeof d.requested === 'string' ? d.requested : undefined };
}
