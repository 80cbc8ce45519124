/**
 * What every request handler receives: the app-server state (runtime, threads, probe) and the
 * client connection that sent the request.
 */

import type { RequestId } from '@mcprt/protocol';
import type { Runtime } from '@mcprt/runtime';

import type { OAuthLoginTable } from './handlers/oauthLogins.js';
import type { ProbeSession } from './probe.js';
import type { RpcPeer } from './rpcPeer.js';
import type { ThreadRecord, ThreadTable } from './threads.js';
import { invalidRequest } from './errorMap.js';

export interface AppServerState {
  readonly runtime: Runtime;
  readonly threads: ThreadTable;
  readonly probe: ProbeSession;
  /** OAuth logins in progress, by connection and `loginId`. */
  readonly oauthLogins: OAuthLoginTable;
  /** The config home reported by `initialize` (Codex's `codexHome`). */
  readonly home: string;
  readonly version: string;
}

export interface HandlerContext {
  readonly state: AppServerState;
  readonly peer: RpcPeer;
  /** The JSON-RPC request being handled. */
  readonly requestId: RequestId;
  /**
   * Registers what cancels the request's work (`$/cancelRequest` for it, or the client
   * disconnecting); returns its unregistration. See `IncomingRequest.onCancel`.
   */
  readonly onCancel: (cancel: () => void) => () => void;
}

/**
 * The thread `threadId` of the connection that sent the request. A thread belongs to the
 * connection that started it: another connection's thread id is answered exactly like an id
 * that does not exist (Codex's text, `thread not found: <id>`), so a connection can neither use
 * nor detect the threads of another (docs/security.md).
 */
export function requireThread(ctx: HandlerContext, threadId: string): ThreadRecord {
  const thread = ctx.state.threads.get(threadId);
  if (!thread || thread.owner !== ctx.peer) throw threadNotFound(threadId);
  return thread;
}

export function threadNotFound(threadId: string) {
  return invalidRequest(`thread not found: ${threadId}`);
}
