/**
 * The MCP SDK client's internals the tool-call fast path (ADR 0021) uses on the 2026-07-28
 * revision, in one typed view so an SDK upgrade has one place to check (the SDK is pinned; the
 * 2026 call tests exercise every member): the per-request `_meta` envelope (protocol version,
 * client info and capabilities, exactly as the SDK adds it), the era's wire codec (result
 * discrimination and validation), and the input-required engine with the SDK's own request funnel
 * for the retried legs — so the rounds after a fast first leg are the SDK's, unchanged.
 */

import type { Client } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** The era codec's function-only contract (the members used here). */
interface WireCodec {
  readonly era: string;
  decodeResult(method: string, raw: unknown): Decoded;
  validateResult(
    method: string,
    raw: unknown,
  ): { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
}

type Decoded =
  | { readonly kind: 'complete'; readonly result: unknown }
  | { readonly kind: 'invalid'; readonly error: Error }
  | { readonly kind: 'input_required'; readonly [key: string]: unknown }
  | { readonly kind: string; readonly result?: unknown };

/** The SDK's request options as its funnel takes them (the members used here). */
export interface SdkRequestOptions {
  readonly timeout: number;
  readonly maxTotalTimeout: number;
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: unknown) => void;
  readonly resetTimeoutOnProgress?: boolean;
}

interface ClientInternals {
  _envelopeOutbound<T extends object>(message: T): T;
  _wireCodec(): WireCodec;
  _resolveNonCompleteResult(decoded: Decoded, flow: unknown): Promise<unknown>;
  _requestWithSchemaViaCodec(
    codec: WireCodec,
    request: { method: string; params?: unknown },
    resultSchema: unknown,
    options: unknown,
  ): Promise<unknown>;
}

const internals = (client: Client): ClientInternals => client as unknown as ClientInternals;

/**
 * The `@modelcontextprotocol/client` version whose private members (`ClientInternals` above) this
 * file was written against; test/repository/sdkVersionPin.test.ts fails on any other installed
 * version, naming what to re-check here.
 */
export const WRITTEN_AGAINST_SDK = '2.4.0';

/** `message` with the SDK's per-request `_meta` envelope (unchanged on 2025-11-25). */
export function envelope<T extends object>(client: Client, message: T): T {
  return internals(client)._envelopeOutbound(message);
}

/** The SDK's result schema for `method` on `codec` (its `codecResultValidator`). */
function resultValidator(codec: WireCodec, method: string) {
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-wire-codec',
      validate(value: unknown) {
        const outcome = codec.validateResult(method, value);
        if (outcome.ok) return { value: outcome.value };
        return {
          issues: [
            {
              message:
                outcome.reason === 'invalid' ? (outcome.message ?? '') : `not-in-era: ${method}`,
            },
          ],
        };
      },
    },
  };
}

/**
 * A 2026-07-28 `tools/call` answer as the SDK's funnel resolves it: an invalid one rejects with
 * the codec's error, `input_required` runs the SDK's rounds (its elicitation handler, retried legs
 * through its own funnel, its round limit), a complete one is validated by the era's schema.
 */
export async function resolveModernResult(
  client: Client,
  raw: unknown,
  request: { method: 'tools/call'; params: unknown },
  options: SdkRequestOptions,
  flowStartedAt: number,
): Promise<unknown> {
  const sdk = internals(client);
  const codec = sdk._wireCodec();
  const decoded = codec.decodeResult(request.method, raw);
  if (decoded.kind === 'invalid') throw (decoded as { error: Error }).error;
  const schema = resultValidator(codec, request.method);
  if (decoded.kind === 'input_required') {
    return sdk._resolveNonCompleteResult(decoded, {
      codec,
      request,
      resultSchema: schema,
      options,
      flowStartedAt,
      retry: (params: unknown, legOptions: unknown) =>
        sdk._requestWithSchemaViaCodec(
          codec,
          params === undefined ? { method: request.method } : { method: request.method, params },
          schema,
          legOptions,
        ),
    });
  }
  const outcome = codec.validateResult(request.method, (decoded as { result: unknown }).result);
  if (outcome.ok) return outcome.value;
  const why =
    outcome.reason === 'invalid' ? (outcome.message ?? '') : `not-in-era: ${request.method}`;
  throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${request.method}: ${why}`);
}
