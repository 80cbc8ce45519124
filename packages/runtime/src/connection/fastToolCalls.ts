/**
 * The tool-call fast path of a stdio connection (ADR 0021): `tools/call`
 * sent as JSON-RPC straight on the connection's transport under ids the SDK never uses (the
 * strings `mcprt-N`; the SDK's are integers), awaited in a table of our own (`@mcprt/base`'s
 * PendingRequests), its response and its progress (token `mcprt-N`) taken off the server's stdout
 * before the SDK's message schema runs. Everything else on the connection stays the SDK's.
 *
 * It keeps what the SDK's request path does for a call, with the SDK's own error types and
 * texts: the timeout (`Request timed out`), an abort signal (its reason), both followed by
 * `notifications/cancelled` to the server; progress forwarded without its token; a JSON-RPC error
 * as the SDK's ProtocolError; "Connection closed" when the transport ends under the call; the
 * result's shape (toolResultShape.ts) and the tool's outputSchema (outputValidators.ts). On
 * 2026-07-28 the request carries the SDK's per-request `_meta` envelope and the answer is resolved
 * by the SDK's codec and, for `input_required`, its round engine (sdkInternals.ts).
 */

import { PendingRequests } from '@mcprt/base';
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { StdioProcessTransport } from '../launch/stdioTransport.js';
import type { CallToolResult, ProgressUpdate, ToolDefinition } from './mcpTypes.js';
import { checkStructuredContent, OutputValidators } from './outputValidators.js';
import { envelope, resolveModernResult } from './sdkInternals.js';
import { sdkCallOptions } from './sdkToolCall.js';
import { toolResultShape } from './toolResultShape.js';

/** The prefix of our request ids and progress tokens (the SDK's ids are integers). */
const PREFIX = 'mcprt-';

export interface FastCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: unknown;
}

export interface FastCallOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Our numeric id in a wire id or token (`mcprt-12` → 12), or undefined for anything else. */
function ownId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined;
  const digits = value.slice(PREFIX.length);
  const id = Number(digits);
  // Exactly what we send (`mcprt-12`, not `mcprt-1.2e1`); anything else is a stray id of ours.
  return Number.isSafeInteger(id) && String(id) === digits ? id : -1;
}

/** What the SDK rejects an aborted request with. */
const abortError = (reason: unknown): Error =>
  reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));

const invalidResult = (reason: string): SdkError =>
  new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${reason}`);

export class FastToolCalls {
  private readonly pending = new PendingRequests();
  private readonly progress = new Map<number, (progress: ProgressUpdate) => void>();
  private readonly outputs = new OutputValidators();
  /** Responses with one of our ids that no call awaited (late after a timeout, or never sent). */
  strayResponses = 0;

  constructor(
    readonly transport: StdioProcessTransport,
    private readonly client: Client,
  ) {
    transport.attach(
      (message) => this.claim(message),
      () => this.closed(),
    );
  }

  /** `tools/call` of `params.name`, checked against `tools`' outputSchema for it. */
  async callTool(
    params: FastCallParams,
    options: FastCallOptions,
    tools: readonly ToolDefinition[],
  ): Promise<CallToolResult> {
    const validate = this.outputs.prepare(tools, params.name);
    const modern = this.client.getProtocolEra() === 'modern';
    const startedAt = Date.now();
    const raw = await this.request(params, options, modern);
    let result: CallToolResult;
    if (modern) {
      const request = { method: 'tools/call', params } as const;
      const options_ = sdkCallOptions(options);
      result = (await resolveModernResult(
        this.client,
        raw,
        request,
        options_,
        startedAt,
      )) as CallToolResult;
    } else {
      const shape = toolResultShape(raw);
      if (!shape.ok) throw invalidResult(shape.reason);
      result = shape.result;
    }
    if (validate !== null) checkStructuredContent(validate, params.name, result);
    return result;
  }

  /** Send the request and settle with its raw result, as the SDK's request funnel does. */
  private request(
    params: FastCallParams,
    options: FastCallOptions,
    modern: boolean,
  ): Promise<unknown> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const { id, promise } = this.pending.add('tools/call');
    const wireId = PREFIX + String(id);
    let sent: FastCallParams = params;
    if (onProgress) {
      this.progress.set(id, onProgress);
      sent = { ...params, _meta: { ...(params._meta as object), progressToken: wireId } };
    }
    const cancel = (reason: unknown): void => {
      this.progress.delete(id);
      const notification = envelope(this.client, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: wireId, reason: String(reason) },
      });
      // As the SDK: a cancellation that cannot be sent changes nothing for the caller.
      this.transport.sendLine(JSON.stringify(notification) + '\n').catch(() => undefined);
      this.pending.reject(id, abortError(reason));
    };
    const onAbort = () => cancel(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () =>
        cancel(
          new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', {
            timeout: options.timeoutMs,
          }),
        ),
      options.timeoutMs,
    );
    const request = { method: 'tools/call', params: sent, jsonrpc: '2.0', id: wireId };
    const message = modern ? envelope(this.client, request) : request;
    this.transport.sendLine(JSON.stringify(message) + '\n').catch((error: unknown) => {
      this.pending.reject(id, error);
    });
    return promise.finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.progress.delete(id);
    });
  }

  /** A parsed line from the server: ours (a response or progress with our id) or not. */
  private claim(message: unknown): (() => void) | undefined {
    if (!isObject(message)) return undefined;
    if ('method' in message) {
      if (message['method'] !== 'notifications/progress') return undefined;
      const params = message['params'];
      const id = isObject(params) ? ownId(params['progressToken']) : undefined;
      return id === undefined ? undefined : () => this.onProgress(id, params as ProgressParams);
    }
    const id = ownId(message['id']);
    return id === undefined ? undefined : () => this.onResponse(id, message);
  }

  private onProgress(id: number, params: ProgressParams): void {
    const handler = this.progress.get(id);
    const { progressToken: _token, ...update } = params;
    if (handler === undefined || typeof update.progress !== 'number') return;
    if (update.total !== undefined && typeof update.total !== 'number') return;
    if (update.message !== undefined && typeof update.message !== 'string') return;
    handler(update);
  }

  private onResponse(id: number, message: Record<string, unknown>): void {
    const error = message['error'];
    const settled =
      message['jsonrpc'] !== '2.0'
        ? this.pending.settle(id, {
            ok: false,
            error: invalidResult('not a JSON-RPC 2.0 response'),
          })
        : 'result' in message
          ? this.pending.settle(id, { ok: true, value: message['result'] })
          : isObject(error) && typeof error['code'] === 'number'
            ? this.pending.settle(id, {
                ok: false,
                error: ProtocolError.fromError(
                  error['code'],
                  typeof error['message'] === 'string' ? error['message'] : '',
                  error['data'],
                ),
              })
            : this.pending.settle(id, {
                ok: false,
                error: invalidResult('a response with neither a result nor an error'),
              });
    if (settled !== true) this.strayResponses += 1;
  }

  /** The transport ended: every call still waiting fails as the SDK's do. */
  private closed(): void {
    this.progress.clear();
    this.pending.rejectAll(() => new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  }
}

interface ProgressParams {
  readonly progressToken?: unknown;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
  readonly [key: string]: unknown;
}
