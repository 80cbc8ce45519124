/**
 * Calls the stdio fast path (fastPath.ts) started but hands to the SDK server to finish, because
 * the SDK does that part and the fast path does not copy it: an elicitation on a 2025 connection
 * (the SDK's legacy shim sends the real `elicitation/create` requests and re-enters the handler
 * with the answers) and a result that does not look like a valid tool result (the SDK validates
 * it and answers as it always did). The fast path re-injects the client's request with a
 * `requestState` naming an entry here; the SDK's `tools/call` handler takes the entry and answers
 * from it instead of starting the call again. Tokens are unguessable and used once.
 */

import { randomBytes } from 'node:crypto';

import type { ElicitationRequest } from '@mcprt/runtime';

import type { Operation } from './operations.js';

export type Handover =
  | {
      readonly kind: 'input';
      readonly subject: string;
      /** The parked operation; its token is the entry's token. */
      readonly operation: Operation<unknown>;
      readonly requests: ReadonlyMap<string, ElicitationRequest>;
    }
  | { readonly kind: 'result'; readonly subject: string; readonly value: unknown };

export class HandoverTable {
  private readonly entries = new Map<string, Handover>();

  /** Register a handover; returns the `requestState` the re-injected request carries. */
  put(entry: Handover): string {
    const token =
      entry.kind === 'input' ? entry.operation.token : randomBytes(18).toString('base64url');
    this.entries.set(token, entry);
    return token;
  }

  /** The entry for a request's `requestState` (once), if it names one for this subject. */
  take(token: string, subject: string): Handover | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined || entry.subject !== subject) return undefined;
    this.entries.delete(token);
    return entry;
  }

  /** Forget an entry whose request never reached the SDK (the connection closed). */
  drop(token: string): void {
    this.entries.delete(token);
  }
}
