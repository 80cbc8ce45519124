/**
 * A session's elicitation relay: gives each server request its registration scope and the
 * thread, hands it to the host's handler, and keeps it in a pending table keyed by
 * `scope + request id` (so same-named servers in two environments can elicit at once without
 * crossing). No handler → decline at once. A request the server cancels (or whose connection
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
import { scopeKey } from '../scope.js';

export class ElicitationRelay {
  private handler: ElicitationHandler | null;
  private readonly pending = new Map<string, ElicitationRequest>();

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
    const key = `${scopeKey(scope)}#${String(request.requestId)}`;
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
