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
 *
 * A call costs one object (`FastCall`) and one promise (ADR 0023; timeouts share a timer): its response is
 * checked and its failure translated (the connection's `failure`) where it is taken off stdout,
 * so the caller's `await` is the first promise hop after the server's answer. A `CallCancel`
 * cancels it through a plain registration instead of an `abort` listener.
 */

import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JsonSchemaValidator } from '@modelcontextprotocol/client';

import type { StdioProcessTransport } from '../launch/stdioTransport.js';
import type { CallSignal } from './callCancel.js';
import { CallCancel } from './callCancel.js';
import type { CallOwner } from './fastCall.js';
import { Deadlines, FastCall } from './fastCall.js';
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
  readonly signal?: CallSignal | undefined;
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
}

/** What a failed call rejects with: the connection's translation of the SDK-style error. */
export type FailureTranslation = (error: unknown) => Promise<Error>;

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

/** A listed tool without an outputSchema, and its answer, as a server's JSON text gives them. */
const WARM_UP_TOOLS = JSON.parse('[{"name":"warm-up","inputSchema":{"type":"object"}}]') as [
  ToolDefinition,
];
const WARM_UP_ANSWER = `{"jsonrpc":"2.0","id":"${PREFIX}1","result":{"content":[{"type":"text","text":"warm-up"}]}}`;
/** The warm-up's transport and client: the line is dropped, the era is 2025's. */
const NO_TRANSPORT = {
  attach: () => undefined,
  writeLine: () => undefined,
} as unknown as StdioProcessTransport;
const LEGACY_CLIENT = { getProtocolEra: () => 'legacy' } as unknown as Client;

/**
 * Part of the call path's priming (manager/callPathWarmUp.ts, ADR 0027): one 2025 call of a
 * throw-away fast path whose transport drops the request line (no process, no pipe) and which is
 * then handed a synthetic answer, so that a connection's first call runs compiled code: the
 * request, its `FastCall`, cancellation registration and deadline, the answer's claim, shape
 * check and settlement. It also has Node load `perf_hooks` (on the first use of the global
 * `performance`, in `FastCall`: ~1–1.5 ms). Nothing is sent; its deadline timer is unref'd once
 * the call settles.
 */
export function warmUpFastPath(): void {
  const fast = new FastToolCalls(NO_TRANSPORT, LEGACY_CLIENT, (error) =>
    Promise.resolve(error as Error),
  );
  const cancel = new CallCancel();
  void fast.callTool({ name: 'warm-up' }, { timeoutMs: 1000, signal: cancel }, WARM_UP_TOOLS);
  fast.claim(JSON.parse(WARM_UP_ANSWER))?.();
}

export class FastToolCalls implements CallOwner {
  private nextId = 1;
  private readonly calls = new Map<number, FastCall>();
  private readonly deadlines = new Deadlines(this.calls);
  private readonly progress = new Map<number, (progress: ProgressUpdate) => void>();
  private readonly outputs = new OutputValidators();

  constructor(
    readonly transport: StdioProcessTransport,
    private readonly client: Client,
    private readonly failure: FailureTranslation,
  ) {
    transport.attach(
      (message) => this.claim(message),
      () => this.closed(),
    );
  }

  /**
   * `tools/call` of `params.name`, checked against `tools`' outputSchema for it; rejects with
   * the connection's translation of the failure.
   */
  callTool(
    params: FastCallParams,
    options: FastCallOptions,
    tools: readonly ToolDefinition[],
  ): Promise<CallToolResult> {
    let validate: JsonSchemaValidator<unknown> | null;
    try {
      validate = this.outputs.prepare(tools, params.name);
    } catch (error) {
      return this.failure(error).then((failure) => Promise.reject(failure));
    }
    if (this.client.getProtocolEra() === 'modern') {
      return this.modernCall(params, options, validate).catch(async (error: unknown) => {
        throw await this.failure(error);
      });
    }
    return this.request(params, options, validate, false) as Promise<CallToolResult>;
  }

  /** A 2026-07-28 call: the raw answer resolved by the SDK's codec (and round engine). */
  private async modernCall(
    params: FastCallParams,
    options: FastCallOptions,
    validate: JsonSchemaValidator<unknown> | null,
  ): Promise<CallToolResult> {
    const startedAt = Date.now();
    const raw = await this.request(params, options, null, true);
    const request = { method: 'tools/call', params } as const;
    const result = (await resolveModernResult(
      this.client,
      raw,
      request,
      sdkCallOptions(options),
      startedAt,
    )) as CallToolResult;
    if (validate !== null) checkStructuredContent(validate, params.name, result);
    return result;
  }

  /** Send the request; settles as the SDK's request funnel does (2025: checked, translated). */
  private request(
    params: FastCallParams,
    options: FastCallOptions,
    validate: JsonSchemaValidator<unknown> | null,
    modern: boolean,
  ): Promise<unknown> {
    const { signal, onProgress, timeoutMs } = options;
    if (signal?.aborted) return this.rejected(modern, abortError(signal.reason));
    const id = this.nextId++;
    const wireId = PREFIX + String(id);
    const call = new FastCall(this, id, wireId, signal, timeoutMs, modern, validate, params.name);
    this.calls.set(id, call);
    let sent: FastCallParams = params;
    if (onProgress) {
      this.progress.set(id, onProgress);
      sent = { ...params, _meta: { ...(params._meta as object), progressToken: wireId } };
    }
    if (signal instanceof CallCancel) signal.listen(call);
    else if (signal) {
      call.onAbort = () => this.cancel(call, signal.reason);
      signal.addEventListener('abort', call.onAbort, { once: true });
    }
    this.deadlines.added(call.deadline);
    const request = { method: 'tools/call', params: sent, jsonrpc: '2.0', id: wireId };
    const message = modern ? envelope(this.client, request) : request;
    const waiting = this.transport.writeLine(JSON.stringify(message) + '\n');
    if (waiting !== undefined) {
      waiting.catch((error: unknown) => {
        if (this.end(call)) this.fail(call, error);
      });
    }
    return call.promise;
  }

  /** Cancelled (signal) or timed out: tell the server, fail the call with the SDK's error. */
  cancel(call: FastCall, reason: unknown): void {
    if (!this.end(call)) return;
    const notification = envelope(this.client, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: call.wireId, reason: String(reason) },
    });
    // As the SDK: a cancellation that cannot be sent changes nothing for the caller.
    this.transport.sendLine(JSON.stringify(notification) + '\n').catch(() => undefined);
    this.fail(call, abortError(reason));
  }

  /** Forget a call that is settling (false: it was already). */
  private end(call: FastCall): boolean {
    if (this.calls.get(call.id) !== call) return false;
    this.calls.delete(call.id);
    this.progress.delete(call.id);
    this.deadlines.removed();
    const signal = call.signal;
    if (signal instanceof CallCancel) signal.unlisten(call);
    else if (signal && call.onAbort) signal.removeEventListener('abort', call.onAbort);
    return true;
  }

  /** A failure of the request (translated on 2025; the 2026 caller translates its own). */
  private fail(call: FastCall, error: unknown): void {
    if (call.raw) call.reject(error);
    else this.failure(error).then(call.reject, call.reject);
  }

  private rejected(raw: boolean, error: unknown): Promise<never> {
    if (raw) return Promise.reject(error);
    return this.failure(error).then((failure) => Promise.reject(failure));
  }

  /**
   * A parsed line from the server: ours (a response or progress with our id) or not. Public for
   * `warmUpFastPath`; otherwise only the transport calls it.
   */
  claim(message: unknown): (() => void) | undefined {
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
    const call = this.calls.get(id);
    // One of our ids that no call awaits (late after a timeout, or never sent): dropped.
    if (call === undefined || !this.end(call)) return;
    const error = message['error'];
    if (message['jsonrpc'] !== '2.0') this.fail(call, invalidResult('not a JSON-RPC 2.0 response'));
    else if ('result' in message) this.succeed(call, message['result']);
    else if (isObject(error) && typeof error['code'] === 'number') {
      this.fail(
        call,
        ProtocolError.fromError(
          error['code'],
          typeof error['message'] === 'string' ? error['message'] : '',
          error['data'],
        ),
      );
    } else this.fail(call, invalidResult('a response with neither a result nor an error'));
  }

  /** A result: 2026's raw, for the codec; 2025's checked here (shape, output schema). */
  private succeed(call: FastCall, raw: unknown): void {
    if (call.raw) {
      call.resolve(raw);
      return;
    }
    const shape = toolResultShape(raw);
    if (!shape.ok) {
      this.fail(call, invalidResult(shape.reason));
      return;
    }
    if (call.validate !== null) {
      try {
        checkStructuredContent(call.validate, call.name, shape.result);
      } catch (error) {
        this.fail(call, error);
        return;
      }
    }
    call.resolve(shape.result);
  }

  /** The transport ended: every call still waiting fails as the SDK's do. */
  private closed(): void {
    this.progress.clear();
    for (const call of [...this.calls.values()]) {
      if (this.end(call))
        this.fail(call, new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    }
  }
}

interface ProgressParams {
  readonly progressToken?: unknown;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
  readonly [key: string]: unknown;
}
