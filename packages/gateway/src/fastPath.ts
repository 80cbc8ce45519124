/**
 * The `tools/call` fast path of a stdio connection (docs/adr/0020): once a 2025 connection has
 * been initialized, a plain `tools/call` line is served here, from the parsed JSON, without the
 * SDK server's zod checks, context construction and result validation — through the same
 * operation machinery (operations.ts, toolCall.ts), so routing, `_meta` splitting, history,
 * progress, cancellation and timeouts are the SDK handler's. Everything else goes to the SDK:
 * every other message, a 2026-07-28 connection's calls (their per-request envelope is the SDK's
 * to check), a `tools/call` with anything unusual in it (the SDK answers it as it always did),
 * and the parts of a call the SDK does (handover.ts): an elicitation (the legacy shim sends the
 * real `elicitation/create`) and a result that does not look like a valid tool result. With
 * tracing on, nothing is served here: the SDK handler's path traces each call (tracing.ts).
 */

import type { InventoryTool } from '@mcprt/runtime';
import { META_TOOL_NAMES, tracingEnabled } from '@mcprt/runtime';
import type { ClientCapabilities, JSONRPCMessage, Server } from '@modelcontextprotocol/server';

import { modesOf } from './elicitation.js';
import {
  errorBody,
  isId,
  isPlain,
  looksLikeToolResult,
  plainCall,
  progressLine,
  resultLine,
  withContent,
} from './fastPathShapes.js';
import { TASKS_EXTENSION } from './tasks.js';
import { envelopeFingerprint, modernCall, ModernEnvelopes } from './fastPathModern.js';
import type { ElicitationModes, Operation, RoundListener, RoundOutcome } from './operations.js';
import type { GatewayCore } from './serverFactory.js';
import { toolFailure, toolRun, toolSubject, unfoundTool } from './toolCall.js';
import type { ToolCallParams } from './toolCall.js';

type Id = string | number;
type Json = Record<string, unknown>;

/** Where the fast path writes (responses, progress) and re-injects handed-over requests. */
export interface FastPathWire {
  /** One serialized message (a line, newline included), written as it stands. */
  write(line: string): void;
  inject(message: unknown): void;
  readonly isOpen: boolean;
}

export class FastToolCalls {
  /** The connection's 2025 server instance, once its `initialize` has been answered. */
  private server: Server | undefined;
  private pendingLegacy: Server | undefined;
  private initializeId: Id | undefined;
  /** On a 2026-07-28 connection: the envelopes the SDK accepted (fastPathModern.ts). */
  private modern: ModernEnvelopes | undefined;
  /** The elicitation modes the connection's client declared (read on its first fast call). */
  private modes: ElicitationModes | undefined;
  private readonly inflight = new Map<Id, FastCall>();
  private closed = false;

  constructor(
    private readonly core: GatewayCore,
    private readonly wire: FastPathWire,
  ) {}

  /** The SDK's entry created the connection's server instance (a probe may be replaced). */
  instance(era: 'legacy' | 'modern', server: Server): Server {
    this.server = undefined;
    this.modes = undefined;
    this.pendingLegacy = era === 'legacy' ? server : undefined;
    this.modern = era === 'modern' ? new ModernEnvelopes() : undefined;
    return server;
  }

  /** Every message written: the answer to `initialize` opens the fast path. */
  sent(message: JSONRPCMessage): void {
    this.modern?.sent(message as Json);
    if (this.initializeId === undefined || !('id' in message) || message.id !== this.initializeId) {
      return;
    }
    this.initializeId = undefined;
    if ('result' in message && this.pendingLegacy !== undefined) this.server = this.pendingLegacy;
  }

  /** Offered every parsed line; `true` when it is served here. */
  take(message: unknown): boolean {
    if (!isPlain(message)) return false;
    const method = message['method'];
    if (method === 'notifications/cancelled') return this.cancel(message['params']);
    if (method === 'initialize' && isId(message['id'])) {
      this.initializeId = message['id'];
      return false;
    }
    // With tracing on every call takes the SDK handler's path, which traces it (tracing.ts).
    if (this.closed || tracingEnabled()) return false;
    if (this.modern !== undefined) return this.takeModern(this.modern, method, message);
    if (method !== 'tools/call' || this.server === undefined) return false;
    const call = plainCall(message);
    if (call === undefined || this.inflight.has(call.id)) return false;
    // The meta-tools (tool search) are the SDK handler's (serverFactory.ts).
    if (META_TOOL_NAMES.has(call.params.name)) return false;
    const modes = (this.modes ??= modesOf(this.server.getClientCapabilities()));
    this.serve(
      new FastCall(this, call.id, message, toolSubject(call.params.name), undefined),
      call.params,
      call.meta,
      modes,
    );
    return true;
  }

  /**
   * A 2026-07-28 connection: a `tools/call` whose envelope the SDK has accepted before, for a
   * tool in the inventory, is served here; every other request (and that one's first call) goes
   * to the SDK, whose answer to a `tools/list` or `tools/call` teaches which envelopes it accepts.
   */
  private takeModern(envelopes: ModernEnvelopes, method: unknown, message: Json): boolean {
    if (method === 'tools/list' && isId(message['id'])) {
      const params = message['params'];
      envelopes.observe(
        message['id'],
        envelopeFingerprint(isPlain(params) ? params['_meta'] : undefined),
      );
      return false;
    }
    if (method !== 'tools/call') return false;
    const call = modernCall(message);
    if (call === undefined || this.inflight.has(call.id)) return false;
    // A client that takes tasks may get one: the SDK handler's path (tasks.ts).
    if (declaresTasks(call.capabilities)) return false;
    if (!envelopes.accepts(call.fingerprint)) {
      envelopes.observe(call.id, call.fingerprint);
      return false;
    }
    // An unknown tool (or one of a server still starting) gets the SDK's answer.
    const entry = this.core.catalog.toolNow(call.params.name);
    if (entry === undefined) return false;
    const fast = new FastCall(this, call.id, message, toolSubject(call.params.name), envelopes);
    this.inflight.set(call.id, fast);
    try {
      this.run(
        fast,
        entry,
        call.params,
        call.meta,
        modesOf(call.capabilities as ClientCapabilities),
      );
    } catch (error) {
      this.failed(fast, error);
    }
    return true;
  }

  /** The connection closed: calls in flight are cancelled, like the SDK aborts its handlers. */
  close(): void {
    this.closed = true;
    const error = new Error('Connection closed');
    for (const call of this.inflight.values()) call.cancel(error);
    this.inflight.clear();
  }

  private cancel(params: unknown): boolean {
    if (!isPlain(params) || !isId(params['requestId'])) return false;
    const call = this.inflight.get(params['requestId']);
    if (call === undefined) return false;
    this.inflight.delete(params['requestId']);
    // No reason: the operation's CallCancel gives the call its AbortError, as before.
    call.cancel(params['reason']);
    return true;
  }

  /**
   * Start the call: at once when the tool is in the inventory (no promise hop before the
   * request reaches the server), else once the servers still starting have settled.
   */
  private serve(
    call: FastCall,
    params: ToolCallParams,
    meta: Json | undefined,
    modes: ElicitationModes,
  ) {
    this.inflight.set(call.id, call);
    try {
      this.core.start();
      const entry = this.core.catalog.toolNow(params.name);
      if (entry !== undefined) {
        this.run(call, entry, params, meta, modes);
        return;
      }
    } catch (error) {
      this.failed(call, error);
      return;
    }
    this.core.catalog
      .findTool(params.name)
      .then((entry) => {
        if (entry === undefined) throw unfoundTool(this.core, params);
        this.run(call, entry, params, meta, modes);
      })
      .catch((error: unknown) => this.failed(call, error));
  }

  private run(
    call: FastCall,
    entry: InventoryTool,
    params: ToolCallParams,
    meta: Json | undefined,
    modes: ElicitationModes,
  ): void {
    const operation = this.core.operations.start(
      entry.scope,
      call.subject,
      toolRun(this.core, entry, params, meta),
      this.core.client,
    );
    call.operation = operation;
    // Cancelled before the call existed: it starts and is cancelled at once, as it always was.
    if (call.cancelled) operation.cancel(call.reason);
    const token = meta?.['progressToken'] as Id | undefined;
    operation.serveRound(
      {
        // A 2025 request spans every round (the SDK's shim re-enters in process); a 2026 one
        // is one round, answered, and the client's retry is the next request.
        spansRounds: call.modern === undefined,
        modes,
        progress: token !== undefined ? (u) => this.write(progressLine(token, u)) : undefined,
      },
      call,
    );
  }

  /** A round of the call ended: answer it (or hand it to the SDK to finish). */
  answered(call: FastCall, outcome: RoundOutcome<unknown>): void {
    try {
      // A cancelled request gets no answer (whatever the call did), as from the SDK.
      if (call.cancelled) return;
      switch (outcome.kind) {
        case 'done':
          if (
            looksLikeToolResult(outcome.value) &&
            (call.modern === undefined || !('resultType' in outcome.value))
          ) {
            this.write(call.resultLine(withContent(outcome.value)));
          } else {
            this.handOver(
              call,
              this.core.handovers.put({
                kind: 'result',
                subject: call.subject,
                value: outcome.value,
              }),
            );
          }
          return;
        case 'failed':
          this.write(call.resultLine(toolFailure(outcome.error) as Json));
          return;
        case 'input':
          if (!this.wire.isOpen) {
            // Nobody left to ask: the parked call is cancelled, not left to its input timeout.
            call.operation!.cancel(new Error('Connection closed'));
            return;
          }
          this.handOver(
            call,
            this.core.handovers.put({
              kind: 'input',
              subject: call.subject,
              operation: call.operation!,
              requests: outcome.requests,
            }),
          );
          return;
      }
    } catch (error) {
      this.failed(call, error);
    } finally {
      this.forget(call);
    }
  }

  /** The call could not run (unknown tool, …): the SDK's answer to a thrown error. */
  private failed(call: FastCall, error: unknown): void {
    this.forget(call);
    if (call.cancelled) return;
    this.write(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: errorBody(error) }) + '\n');
  }

  private forget(call: FastCall): void {
    if (this.inflight.get(call.id) === call) this.inflight.delete(call.id);
  }

  /** The SDK finishes the call: the client's request again, naming the handover. */
  private handOver(call: FastCall, token: string): void {
    // From here on the request is the SDK's: a cancellation goes there.
    this.forget(call);
    if (!this.wire.isOpen) {
      this.core.handovers.drop(token);
      return;
    }
    const params = call.request['params'] as Json;
    this.wire.inject({ ...call.request, params: { ...params, requestState: token } });
  }

  private write(line: string): void {
    if (this.wire.isOpen) this.wire.write(line);
  }
}

/**
 * One fast-path call in flight; it hears its operation's round end (no closure per call). Its
 * fields are assigned in the constructor (no class-field initializers per call, ADR 0023).
 */
class FastCall implements RoundListener<unknown> {
  declare operation: Operation<unknown> | undefined;
  declare cancelled: boolean;
  declare reason: unknown;
  declare private readonly owner: FastToolCalls;
  declare readonly id: Id;
  declare readonly request: Json;
  declare readonly subject: string;
  /** A 2026-07-28 call: its connection's accepted envelopes and the SDK's encoding. */
  declare readonly modern: ModernEnvelopes | undefined;

  constructor(
    owner: FastToolCalls,
    id: Id,
    request: Json,
    subject: string,
    modern: ModernEnvelopes | undefined,
  ) {
    this.operation = undefined;
    this.cancelled = false;
    this.reason = undefined;
    this.owner = owner;
    this.id = id;
    this.request = request;
    this.subject = subject;
    this.modern = modern;
  }

  /** The answer for a tool result, in the connection's era. */
  resultLine(result: Json): string {
    return this.modern === undefined
      ? resultLine(this.id, result)
      : this.modern.resultLine(this.id, result);
  }

  /** The client cancelled it, or the connection closed: the call is aborted at the server. */
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.operation?.cancel(reason);
  }

  roundEnded(outcome: RoundOutcome<unknown>): void {
    this.owner.answered(this, outcome);
  }
}

/** A 2026 client's request capabilities declare the tasks extension. */
function declaresTasks(capabilities: unknown): boolean {
  const extensions = isPlain(capabilities) ? capabilities['extensions'] : undefined;
  return isPlain(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}
