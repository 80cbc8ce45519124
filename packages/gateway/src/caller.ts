/**
 * Who is calling the gateway: a local stdio client, the holder of the static HTTP token, or an
 * OAuth caller identified by a verified JWT access token (docs/gateway.md, "Running it for a
 * team"). Built by the HTTP listener's authentication, handed to the server instance that serves
 * the caller's request(s), matched against `[[serve.policies]]` and recorded (its identity only,
 * never a token) on every history record of its calls.
 */

import type { CallerIdentity } from '@mcprt/runtime';

export interface Caller extends CallerIdentity {
  /** How the caller was identified. */
  readonly kind: 'local' | 'token' | 'oauth';
  /** The token's scopes (`scope`, space-separated, or `scp`). */
  readonly scopes: readonly string[];
  /** The configured groups claim's values. */
  readonly groups: readonly string[];
}

/** A stdio client: the process that started the gateway. */
export const LOCAL_CALLER: Caller = {
  kind: 'local',
  subject: null,
  clientId: null,
  scopes: [],
  groups: [],
};

/** The holder of the static bearer token (`[serve.auth] mode = "token"`). */
export const TOKEN_CALLER: Caller = {
  kind: 'token',
  subject: null,
  clientId: null,
  scopes: [],
  groups: [],
};

/** `sub`, or the client id, or the kind: how logs name a caller. */
export function callerLabel(caller: Caller): string {
  if (caller.subject !== null) {
    return caller.clientId === null
      ? caller.subject
      : `${caller.subject} (client ${caller.clientId})`;
  }
  return caller.clientId ?? `${caller.kind} caller`;
}
