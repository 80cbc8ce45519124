/**
 * A session's elicitation relay: gives each server request its registration scope and the
 * thread, hands it to the host's handler, and keeps it in a pending table under a key of its own
 * (never the server's request id: on 2026-07-28 that is the key of the input request inside one
 * call's input-required result, so two concurrent calls of one server both ask as `answer`), so
 * same-named servers in two environments and concurrent rounds of one server elicit at once
 * without crossing. No handler → decline at once. A request the server cancels (or whose connection
 * goes away) is answered `cancel` and leaves the table.
 */

import type {
  ElicitationHandler,
  ElicitationRequest,
  ElicitationResponse,
  ServerElicitation,
} from '../elicitation/types.js';
import { DECLINE } from '../elicitation/types.js';
import type { RegistrationScope } from '../scope.js';

export class ElicitationRelay {
  private handler: ElicitationHandler | null;
  private readonly pending = new Map<number, ElicitationRequest>();
  private nextKey = 0;

  constructor(
    private readonly threadId: string,
    handler: ElicitationHandler | null,
  ) {
    this.handler = handler;
  }

  setHandler(handler: ElicitationHandler | null): void {
    this.handler = handler;
  }

  /** Requests waiting for the host's answer, oldest first. */
  list(): ElicitationRequest[] {
    return [...this.pending.values()];
  }

  async relay(scope: RegistrationScope, request: ServerElicitation): Promise<ElicitationResponse> {
    const handler = this.handler;
    if (!handler || request.signal.aborted) return DECLINE;
    const full: ElicitationRequest = {
      ...request,
      threadId: this.threadId,
      scope,
      serverName: scope.name,
      environmentId: scope.environmentId,
    };
    const key = this.nextKey++;
    this.pending.set(key, full);
    try {
      const cancelled = new Promise<ElicitationResponse>((resolve) =>
        request.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), {
          once: true,
        }),
      );
      return await Promise.race([handler(full), cancelled]);
    } finally {
      this.pending.delete(key);
    }
  }
}
