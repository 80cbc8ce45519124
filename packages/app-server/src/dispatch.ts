/**
 * The request dispatcher, built from the protocol's method table: every client method has
 * exactly one handler (the mapped type makes a missing or extra one a compile error), params are
 * validated with the method's schema (Codex-style `Invalid request: …` texts), requests before
 * `initialize` are refused, and any failure is mapped to a wire error.
 */

import type { ClientRequestMethod, ClientRequests, ParamsOut, RequestId } from '@mcprt/protocol';
import { clientRequests, ErrorCode, parseParams, ProtocolError } from '@mcprt/protocol';

import type { AppServerState, HandlerContext } from './context.js';
import { toProtocolError } from './errorMap.js';
import { reloadConfig } from './handlers/configReload.js';
import { listEnvironments } from './handlers/environmentList.js';
import { listHistory } from './handlers/historyList.js';
import { listTasks } from './handlers/taskList.js';
import { taskResult } from './handlers/taskResult.js';
import { cancelTool } from './handlers/toolCancel.js';
import { initialize } from './handlers/initialize.js';
import { oauthLogin } from './handlers/oauthLogin.js';
import { oauthLogout } from './handlers/oauthLogout.js';
import { oauthSubmitRedirect } from './handlers/oauthSubmitRedirect.js';
import { readResource } from './handlers/resourceRead.js';
import { listServerStatus } from './handlers/serverStatusList.js';
import { updateSandboxState } from './handlers/sandboxStateUpdate.js';
import { threadStart } from './handlers/threadStart.js';
import { callTool } from './handlers/toolCall.js';
import { searchTools } from './handlers/toolSearch.js';
import { getToolView } from './handlers/toolViewGet.js';
import type { IncomingRequest, RpcPeer } from './rpcPeer.js';
import { dispatchTraced, tracesMethod } from './tracing.js';

type Handlers = {
  [M in ClientRequestMethod]: (
    params: ParamsOut<ClientRequests[M]>,
    ctx: HandlerContext,
  ) => Promise<unknown>;
};

const handlers: Handlers = {
  initialize,
  'thread/start': threadStart,
  'thread/sandboxState/update': updateSandboxState,
  'mcpServerStatus/list': listServerStatus,
  'mcpServer/tool/call': callTool,
  'mcpServer/resource/read': readResource,
  'mcpServer/oauth/login': oauthLogin,
  'mcpServer/oauth/login/submitRedirect': oauthSubmitRedirect,
  'mcpServer/oauth/logout': oauthLogout,
  'config/mcpServer/reload': reloadConfig,
  'environment/list': listEnvironments,
  'mcpServer/tool/cancel': cancelTool,
  'history/list': listHistory,
  'mcpServer/task/list': listTasks,
  'mcpServer/task/result': taskResult,
  'mcpServer/tool/search': searchTools,
  'thread/toolView/get': getToolView,
};

type Route = {
  readonly params: ClientRequests[ClientRequestMethod]['params'];
  readonly handler: (params: unknown, ctx: HandlerContext) => Promise<unknown>;
};

/** Every client method's params schema and handler, looked up once per request. */
const routes = new Map<string, Route>(
  (Object.keys(clientRequests) as ClientRequestMethod[]).map((method) => [
    method,
    {
      params: clientRequests[method].params,
      handler: handlers[method] as Route['handler'],
    },
  ]),
);

/** What a handler gets: the request's state and connection, and its cancellation. */
class RequestContext implements HandlerContext {
  constructor(
    readonly state: AppServerState,
    readonly peer: RpcPeer,
    private readonly request: IncomingRequest,
  ) {}

  get requestId(): RequestId {
    return this.request.id;
  }

  onCancel(cancel: () => void): () => void {
    return this.request.onCancel(cancel);
  }
}

/**
 * The handler's promise for a request, returned as is (no wrapping async function: one promise
 * hop fewer per request, ADR 0023); a rejection is translated by `wireError` when it is answered.
 */
export function dispatchRequest(
  state: AppServerState,
  peer: RpcPeer,
  method: string,
  rawParams: unknown,
  request: IncomingRequest,
): Promise<unknown> {
  try {
    const route = routes.get(method);
    if (route === undefined) {
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    if (method !== 'initialize' && !peer.initialized) {
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `Not initialized: send \`initialize\` before \`${method}\``,
      );
    }
    const params = parseParams(route.params, rawParams, method);
    const ctx = new RequestContext(state, peer, request);
    // With tracing on an `mcpServer/*` request is a span (tracing.ts); off: one check.
    if (tracesMethod(method))
      return dispatchTraced(method, params, () => route.handler(params, ctx));
    return route.handler(params, ctx);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** What a failed request is answered with (errorMap.ts). */
export const wireError = toProtocolError;
