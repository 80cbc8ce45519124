/**
 * The gateway's unfinished operations (operations.ts): started per client request, found again
 * by the `requestState` token their caller echoes, and — for an underlying server's elicitation —
 * found by the call that asked (its origin), or, for a request with no link to its call, by its
 * registration when every operation waiting on it is one client's.
 */

import { scopeKey } from '@mcprt/runtime';
import type { ElicitationRequest, RegistrationScope } from '@mcprt/runtime';

import { Operation } from './operations.js';
import type { OperationClient, OperationOwner, RunCall } from './operations.js';

export class OperationTable implements OperationOwner {
  /** Every unfinished operation, oldest first. */
  private readonly running = new Set<Operation<unknown>>();
  /** Operations that asked for input, by the token the client echoes. */
  private readonly byToken = new Map<string, Operation<unknown>>();

  /** Set once the gateway may serve several clients at a time (it listens on HTTP). */
  attributing = false;
  /** Set when this gateway is one of several replicas (http/replicaForward.ts). */
  tokenPrefix = '';
  /** Told of every input-required round (the gateway's metrics). */
  onParked: ((scope: RegistrationScope) => void) | null = null;

  constructor(private readonly parkTimeoutMs: number) {}

  start<T>(
    scope: RegistrationScope,
    subject: string,
    run: RunCall<T>,
    client: OperationClient,
  ): Operation<T> {
    const operation: Operation<T> = new Operation(
      scope,
      subject,
      run,
      client,
      this,
      this.parkTimeoutMs,
    );
    this.running.add(operation as Operation<unknown>);
    return operation;
  }

  /** An operation ended (settled, or its parking ran out). */
  finished(operation: Operation<unknown>): void {
    this.running.delete(operation);
    if (operation.mintedToken !== null) this.byToken.delete(operation.mintedToken);
  }

  /** An operation waits for the client's answers under its token. */
  parked(operation: Operation<unknown>): void {
    this.byToken.set(operation.token, operation);
    this.onParked?.(operation.scope);
  }

  /** The operation a client's `requestState` names, if it is still there and the caller's. */
  resume(token: string, callerKey: string): Operation<unknown> | undefined {
    const operation = this.byToken.get(token);
    return operation?.client.callerKey === callerKey ? operation : undefined;
  }

  /**
   * Where an elicitation goes (see the module header): the operation it names, else — for a
   * request with no link to its call — the oldest unfinished operation of the asking
   * registration when all of them belong to one client. `ambiguous`: operations of several
   * clients were waiting on it (the elicitation is declined).
   */
  forElicitation(
    request: Pick<ElicitationRequest, 'scope' | 'origin'>,
  ): Operation<unknown> | { readonly ambiguous: number } | undefined {
    const origin = request.origin;
    if (origin !== null) {
      const linked = origin instanceof Operation && this.running.has(origin) ? origin : undefined;
      return linked?.finished === false ? linked : undefined;
    }
    const key = scopeKey(request.scope);
    let first: Operation<unknown> | undefined;
    const clients = new Set<OperationClient>();
    for (const operation of this.running) {
      if (operation.finished || scopeKey(operation.scope) !== key) continue;
      first ??= operation;
      clients.add(operation.client);
    }
    return clients.size > 1 ? { ambiguous: clients.size } : first;
  }

  get size(): number {
    return this.running.size;
  }

  cancelAll(reason: unknown): void {
    for (const operation of this.running) operation.cancel(reason);
    this.running.clear();
    this.byToken.clear();
  }
}
