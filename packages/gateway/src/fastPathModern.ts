/**
 * What the stdio fast path (fastPath.ts) needs to serve a 2026-07-28 `tools/call` itself
 * (docs/adr/0025). A 2026 request carries the per-request `_meta` envelope (protocol version,
 * client info and capabilities), which the SDK validates on every request with its zod schemas.
 * The fast path never validates an envelope itself: it takes a call only when the envelope's
 * reserved keys are, text for text, ones the SDK has already accepted on this connection (it
 * answered a `tools/list` or `tools/call` carrying them with a result). The SDK lifts the envelope
 * off `_meta` before its handler sees it; so does `modernCall`. The answer is encoded as the
 * SDK's 2026 encoder does for `tools/call` (`resultType: "complete"` stamped, the server's
 * identity added to `_meta`; `tools/call` results carry no cache fields), with the server
 * identity the SDK itself sent.
 */

import { callParts, isPlain } from './fastPathShapes.js';
import type { ToolCallParams } from './toolCall.js';

type Id = string | number;
type Json = Record<string, unknown>;

const PREFIX = 'io.modelcontextprotocol/';
/** The envelope keys the SDK lifts off a request's `_meta` (its RESERVED_ENVELOPE_META_KEYS). */
const PROTOCOL_VERSION = `${PREFIX}protocolVersion`;
const CLIENT_INFO = `${PREFIX}clientInfo`;
const CLIENT_CAPABILITIES = `${PREFIX}clientCapabilities`;
const LOG_LEVEL = `${PREFIX}logLevel`;
const SERVER_INFO = `${PREFIX}serverInfo`;
/** Fingerprints waiting for the SDK's answer, at most (a client changing envelopes each time). */
const MAX_OBSERVED = 64;

export interface ModernCall {
  readonly id: Id;
  readonly params: ToolCallParams;
  /** `_meta` without the envelope (undefined when nothing else was in it). */
  readonly meta: Json | undefined;
  readonly fingerprint: string;
  readonly capabilities: unknown;
}

/** Envelopes the SDK accepted on one connection, and the server identity it stamps. */
export class ModernEnvelopes {
  private readonly accepted = new Set<string>();
  private readonly observed = new Map<Id, string>();
  private serverInfo: Json | undefined;
  /** `resultType` and `_meta` as text, once the server identity is known (resultLine). */
  private stampText: string | undefined;

  accepts(fingerprint: string): boolean {
    return this.serverInfo !== undefined && this.accepted.has(fingerprint);
  }

  /** A request with this envelope goes to the SDK: its answer tells whether it was accepted. */
  observe(id: Id, fingerprint: string | undefined): void {
    if (fingerprint === undefined || this.accepted.has(fingerprint)) return;
    if (this.observed.size < MAX_OBSERVED) this.observed.set(id, fingerprint);
  }

  /** Every message the SDK writes: a result for an observed request accepts its envelope. */
  sent(message: Json): void {
    if (this.observed.size === 0) return;
    const id = message['id'];
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const fingerprint = this.observed.get(id);
    if (fingerprint === undefined) return;
    this.observed.delete(id);
    const result = message['result'];
    if (!isPlain(result)) return;
    const meta = result['_meta'];
    const info = isPlain(meta) ? meta[SERVER_INFO] : undefined;
    if (!isPlain(info)) return;
    this.serverInfo ??= info;
    this.accepted.add(fingerprint);
  }

  /** The response line: the SDK's 2026 `tools/call` encoding of a plain tool result. */
  resultLine(id: Id, result: Json): string {
    // A result with its own `resultType` never gets here (the SDK answers it).
    const meta = result['_meta'];
    let body: string;
    if (meta === undefined) {
      // The usual result: its own keys, then `resultType` and `_meta` (the server identity,
      // encoded once per connection) — the key order of the object spreads below, as text.
      const text = JSON.stringify(result);
      this.stampText ??= `"resultType":"complete","_meta":{${JSON.stringify(SERVER_INFO)}:${JSON.stringify(this.serverInfo)}}}`;
      body = text.length > 2 ? `${text.slice(0, -1)},${this.stampText}` : `{${this.stampText}`;
    } else {
      let stamped: Json = { ...result, resultType: 'complete' };
      if (isPlain(meta) && meta[SERVER_INFO] === undefined) {
        stamped = { ...stamped, _meta: { ...meta, [SERVER_INFO]: this.serverInfo } };
      }
      body = JSON.stringify(stamped);
    }
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}\n`;
  }
}

/** The envelope's text (its reserved keys in order), or undefined when there is none. */
export function envelopeFingerprint(meta: unknown): string | undefined {
  if (!isPlain(meta)) return undefined;
  const version = meta[PROTOCOL_VERSION];
  if (version === undefined) return undefined;
  return JSON.stringify([version, meta[CLIENT_INFO], meta[CLIENT_CAPABILITIES], meta[LOG_LEVEL]]);
}

/**
 * A 2026 `tools/call` the fast path may serve: as `plainCall` for 2025 (a string or integer id,
 * a string name, object arguments, nothing else), with the envelope in `_meta` and no other
 * reserved key, no progress token (2026 progress stays the SDK's) and no log level.
 */
export function modernCall(message: Json): ModernCall | undefined {
  const parts = callParts(message);
  if (parts === undefined || !isPlain(parts.meta)) return undefined;
  const { id, name, args, meta } = parts;
  let others = false;
  for (const key in meta) {
    if (key === PROTOCOL_VERSION || key === CLIENT_INFO || key === CLIENT_CAPABILITIES) continue;
    if (key.startsWith(PREFIX) || key === 'progressToken') return undefined;
    others = true;
  }
  const fingerprint = envelopeFingerprint(meta);
  if (fingerprint === undefined) return undefined;
  return {
    id,
    params: args !== undefined ? { name, arguments: args } : { name },
    meta: others ? withoutEnvelope(meta) : undefined,
    fingerprint,
    capabilities: meta[CLIENT_CAPABILITIES],
  };
}

/** `_meta` as the SDK hands it to the handler: a copy without the envelope's keys. */
function withoutEnvelope(meta: Json): Json {
  const rest = { ...meta };
  delete rest[PROTOCOL_VERSION];
  delete rest[CLIENT_INFO];
  delete rest[CLIENT_CAPABILITIES];
  return rest;
}
