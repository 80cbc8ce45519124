/**
 * Elicitation as the runtime exposes it: what an MCP server asked (form or URL mode), which
 * registration asked (scope, so same-named servers in two environments never cross), and the
 * host's answer. A session without a handler declines at once — never a hang.
 */

import type { RegistrationScope } from '../scope.js';

/** An `elicitation/create` from an MCP server, before the session attaches scope and thread. */
export interface ServerElicitation {
  /**
   * The MCP server's JSON-RPC request id (2025: unique per connection); on 2026-07-28 the key of
   * the input request inside the call's input-required result (unique within that round only).
   */
  readonly requestId: string | number;
  readonly mode: 'form' | 'url';
  readonly message: string;
  /** Form mode: the restricted JSON Schema of the requested content. */
  readonly requestedSchema?: unknown;
  /** URL mode. */
  readonly url?: string;
  readonly elicitationId?: string;
  readonly _meta: unknown;
  /** Aborted when the server cancels the request or the connection goes away. */
  readonly signal: AbortSignal;
  /**
   * The origin the host gave the call that caused it (`withCallOrigin`), when the protocol links
   * the two (2026-07-28 servers, 2025 HTTP servers, a task's questions); null when it does not
   * (a 2025 stdio server's request outside a task) or the call had none (connection/callOrigin.ts).
   */
  readonly origin: object | null;
}

/** What the host's handler receives: the server's request, and which registration asked. */
export interface ElicitationRequest extends ServerElicitation {
  readonly threadId: string;
  readonly scope: RegistrationScope;
  readonly serverName: string;
  readonly environmentId: string | null;
}

export interface ElicitationResponse {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Record<string, unknown> | null;
  readonly _meta?: Record<string, unknown> | null;
}

export type ElicitationHandler = (request: ElicitationRequest) => Promise<ElicitationResponse>;

export const DECLINE: ElicitationResponse = { action: 'decline' };
