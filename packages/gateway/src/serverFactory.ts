/**
 * One MCP server instance of the gateway, for either era: the SDK's serving entries call this
 * factory (`serveStdio` once per connection, `createMcpHandler` once per 2026-07-28 request, the
 * 2025 HTTP sessions once per session). Every handler is written once against the shared
 * gateway state; `tools/call`, `resources/read` and `prompts/get` run as operations
 * (operations.ts), so an underlying server's elicitation becomes an `input_required` result that
 * a 2026-07-28 client fulfils itself and the SDK's legacy shim turns into a real
 * `elicitation/create` request on a 2025 connection.
 */

import type { ElicitationResponse, RegistrationScope, Session } from '@mcprt/runtime';
import {
  CALL_TOOL,
  META_TOOL_NAMES,
  RequestFailedError,
  SANDBOX_STATE_KEY,
  SANDBOX_STATE_META_KEY,
  scopeLabel,
} from '@mcprt/runtime';
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceResult,
  ServerContext,
} from '@modelcontextprotocol/server';

import type { Catalog } from './catalog.js';
import type { ClientCore } from './client.js';
import { answersFrom, clientModes, inputRequestsFor } from './elicitation.js';
import type { HandoverTable } from './handover.js';
import type { OperationTable } from './operationTable.js';
import type { ProgressUpdate } from './operations.js';
import { STATUS_RESOURCE_URI, unwrapResourceUri, wrapResourceUri } from './resourceUri.js';
import { answerMetaQuery, callToolTarget } from './metaTools.js';
import {
  errorText,
  progressParams,
  startToolCall,
  toolFailure,
  toolSubject,
  unfoundTool,
} from './toolCall.js';
import type { Run, ToolCallParams } from './toolCall.js';
import { noteScope, tracedBy } from './tracing.js';
import type { GatewayTaskTable } from './taskTable.js';
import { advertiseTasks, callAsTask, serveTasks, taskRequested } from './tasks.js';
import { advertiseApps, toolsForClient } from './uiResources.js';

export const GATEWAY_VERSION = '0.1.0';

/** What the handlers of one client see (client.ts): the session, its catalog, who it is. */
export interface GatewayCore {
  readonly session: Session;
  readonly catalog: Catalog;
  /** The client itself: its caller, its access, the key its operations carry. */
  readonly client: ClientCore;
  readonly operations: OperationTable;
  /** Calls the stdio fast path handed to the SDK server to finish. */
  readonly handovers: HandoverTable;
  readonly tasks: GatewayTaskTable; // tasks made for clients (tasks.ts)
  /** The status resource's text. */
  statusText(): string;
  /** Start the registrations if nothing has yet (the first real request does). */
  start(): void;
  readonly instructions: string;
  /** Human-paced limit for one elicitation round (the 2025 shim's leg timeout). */
  readonly inputTimeoutMs: number;
}

/** Experimental capabilities: Codex (and any host) sends its sandbox state to servers with them. */
export const GATEWAY_EXPERIMENTAL = {
  [SANDBOX_STATE_KEY]: {},
  [SANDBOX_STATE_META_KEY]: {},
} as const;

/** Upper bound on elicitation rounds of one request (each underlying elicitation is a round). */
const MAX_INPUT_ROUNDS = 64;

export function createGatewayServer(core: GatewayCore): Server {
  const server = new Server(
    { name: 'mcprt', title: 'mcprt gateway', version: GATEWAY_VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        experimental: { ...GATEWAY_EXPERIMENTAL },
      },
      instructions: core.instructions,
      inputRequired: { maxRounds: MAX_INPUT_ROUNDS, roundTimeoutMs: core.inputTimeoutMs },
      // The lists change whenever an underlying server does: never serve them from a cache
      // (2026-07-28); clients hear of changes through list_changed / subscriptions/listen.
      cacheHints: {
        'tools/list': { ttlMs: 0, cacheScope: 'private' },
        'prompts/list': { ttlMs: 0, cacheScope: 'private' },
        'resources/list': { ttlMs: 0, cacheScope: 'private' },
        'resources/templates/list': { ttlMs: 0, cacheScope: 'private' },
        'resources/read': { ttlMs: 0, cacheScope: 'private' },
      },
    },
  );
  advertiseApps(server, core.catalog);
  advertiseTasks(server, core.session);
  const refused = core.client.access.refused;
  if (refused !== null) {
    // A caller no policy grants anything: every request is refused, saying so.
    const deny = () => Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, refused));
    for (const method of GATEWAY_METHODS) server.setRequestHandler(method, deny);
    return server;
  }
  // Each request a SERVER span when tracing is on (tracing.ts).
  const traced = tracedBy(() => server.getNegotiatedProtocolVersion());
  server.setRequestHandler('tools/list', (_, ctx) =>
    traced(ctx, undefined, async () => ({
      tools: toolsForClient(server, ctx, await core.catalog.listTools()) as never,
    })),
  );
  server.setRequestHandler('tools/call', (request, ctx) =>
    traced(ctx, request.params.name, () => callTool(core, server, request.params, ctx)),
  );
  serveTasks(server, core);
  server.setRequestHandler('resources/list', (_, ctx) =>
    traced(ctx, undefined, async () => ({
      resources: (await core.catalog.listResources()) as never,
    })),
  );
  server.setRequestHandler('resources/templates/list', (_, ctx) =>
    traced(ctx, undefined, async () => ({
      resourceTemplates: (await core.catalog.listResourceTemplates()) as never,
    })),
  );
  server.setRequestHandler('resources/read', (request, ctx) =>
    traced(ctx, request.params.uri, () => readResource(core, server, request.params.uri, ctx)),
  );
  server.setRequestHandler('prompts/list', (_, ctx) =>
    traced(ctx, undefined, async () => ({ prompts: (await core.catalog.listPrompts()) as never })),
  );
  server.setRequestHandler('prompts/get', (request, ctx) =>
    traced(ctx, request.params.name, () => getPrompt(core, server, request.params, ctx)),
  );
  return server;
}

const GATEWAY_METHODS = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
] as const;

async function callTool(
  core: GatewayCore,
  server: Server,
  params: { name: string; arguments?: Record<string, unknown> | undefined; task?: unknown },
  ctx: ServerContext,
) {
  const subject = toolSubject(params.name);
  const handedOver = takeHandover(core, subject, ctx);
  if (handedOver !== undefined) return handedOver;
  let target: ToolCallParams = params;
  core.start();
  if (META_TOOL_NAMES.has(params.name) && (await core.catalog.isMetaTool(params.name))) {
    if (params.name !== CALL_TOOL) {
      return answerMetaQuery(core.catalog.view(), params.name, params.arguments);
    }
    const parsed = callToolTarget(params.arguments);
    if ('failure' in parsed) return parsed.failure;
    const inner = parsed.target;
    // A name the view does not hold is the model's to correct: a tool error, not a protocol one.
    if (typeof ctx.mcpReq.requestState() !== 'string') {
      if ((await core.catalog.findTool(inner.name)) === undefined) {
        return toolFailure(unfoundTool(core, inner));
      }
    }
    target = inner;
  }
  const wire = taskRequested(ctx, params);
  if (wire !== null) {
    return callAsTask(core, server, () => startToolCall(core, target, ctx.mcpReq._meta), wire, ctx);
  }
  return serveOperation(
    core,
    server,
    ctx,
    subject,
    () => startToolCall(core, target, ctx.mcpReq._meta),
    // The registration's result, unchanged.
    (result) => result as CallToolResult,
    toolFailure,
  );
}

/**
 * A call the stdio fast path started and handed over (handover.ts): its elicitations, for the
 * SDK's legacy shim to send (the shim then re-enters with the answers and the operation's token,
 * which resumes the operation below), or its finished result, for the SDK to validate and send.
 */
function takeHandover(
  core: GatewayCore,
  subject: string,
  ctx: ServerContext,
): CallToolResult | InputRequiredResult | undefined {
  const state = ctx.mcpReq.requestState();
  if (typeof state !== 'string') return undefined;
  const entry = core.handovers.take(state, subject);
  if (entry === undefined) return undefined;
  if (entry.kind === 'result') return entry.value as CallToolResult;
  // A 2025 request now spans the operation's rounds: cancelling it cancels the call. A 2026-07-28
  // one only answers this round (the client's retry is the next), as in serveOperation.
  if (ctx.mcpReq.envelope === undefined) entry.operation.adopt(ctx.mcpReq.signal);
  return inputRequired({ inputRequests: inputRequestsFor(entry.requests), requestState: state });
}

async function readResource(core: GatewayCore, server: Server, uri: string, ctx: ServerContext) {
  core.start();
  if (uri === STATUS_RESOURCE_URI) {
    return { contents: [{ uri, mimeType: 'application/json', text: core.statusText() }] };
  }
  return serveOperation(
    core,
    server,
    ctx,
    `resources/read ${uri}`,
    async () => {
      const target = await resourceTarget(core, uri);
      return {
        scope: target.scope,
        run: (cancel) =>
          core.session.readResource({
            server: target.scope.name,
            environmentId: target.scope.environmentId,
            uri: target.uri,
            signal: cancel.signal,
          }),
      };
    },
    (result, scope): ReadResourceResult => {
      const read = result as ReadResourceResult;
      // Contents name their resource in the gateway's namespace, like the listing did.
      return {
        ...read,
        contents: read.contents.map((c) => ({ ...c, uri: wrapResourceUri(scope, c.uri) })),
      };
    },
    protocolFailure,
  );
}

async function getPrompt(
  core: GatewayCore,
  server: Server,
  params: { name: string; arguments?: Record<string, string> | undefined },
  ctx: ServerContext,
) {
  return serveOperation(
    core,
    server,
    ctx,
    `prompts/get ${params.name}`,
    async () => {
      const target = await core.catalog.findPrompt(params.name);
      if (target === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
      }
      return {
        scope: target.scope,
        run: (cancel) =>
          core.session.getPrompt({
            server: target.scope.name,
            environmentId: target.scope.environmentId,
            name: target.name,
            ...(params.arguments !== undefined ? { arguments: params.arguments } : {}),
            signal: cancel.signal,
          }),
      };
    },
    (result) => result as GetPromptResult,
    protocolFailure,
  );
}

/**
 * Serve one round of an operation: start it (or resume the one the client's `requestState`
 * names), then answer with its result, its failure, or the elicitations it is waiting for.
 */
async function serveOperation<R>(
  core: GatewayCore,
  server: Server,
  ctx: ServerContext,
  subject: string,
  start: () => Promise<{ scope: RegistrationScope; run: Run }>,
  done: (value: unknown, scope: RegistrationScope) => R,
  failed: (error: unknown) => R,
): Promise<R | InputRequiredResult> {
  core.start();
  const state = ctx.mcpReq.requestState();
  let operation;
  if (typeof state === 'string') {
    operation = core.operations.resume(state, core.client.callerKey);
    if (operation === undefined || operation.subject !== subject) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState');
    }
  } else {
    const { scope, run } = await start();
    noteScope(scope);
    operation = core.operations.start(scope, subject, run, core.client);
  }
  const answers: Map<string, ElicitationResponse> = answersFrom(ctx.mcpReq.inputResponses);
  const progress = progressSink(ctx);
  const outcome = await operation.round({
    signal: ctx.mcpReq.signal,
    // A 2026-07-28 request carries the per-request envelope; a 2025 one spans every round.
    spansRounds: ctx.mcpReq.envelope === undefined,
    modes: clientModes(server, ctx),
    answers,
    ...(progress ? { progress } : {}),
  });
  switch (outcome.kind) {
    case 'input':
      return inputRequired({
        inputRequests: inputRequestsFor(outcome.requests),
        requestState: outcome.token,
      });
    case 'done':
      return done(outcome.value, operation.scope);
    case 'failed':
      // A cancelled request gets no answer; anything else is answered.
      if (ctx.mcpReq.signal.aborted) throw outcome.error;
      return failed(outcome.error);
  }
}

/** Progress of the underlying call, as notifications on this round's progress token. */
function progressSink(ctx: ServerContext): ((update: ProgressUpdate) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (update) =>
    void ctx.mcpReq
      .notify({ method: 'notifications/progress', params: progressParams(token, update) as never })
      .catch(() => undefined);
}

/** The registration and original URI a `resources/read` names. */
async function resourceTarget(
  core: GatewayCore,
  uri: string,
): Promise<{ scope: RegistrationScope; uri: string }> {
  const wrapped = unwrapResourceUri(uri);
  if (wrapped !== null) {
    if (
      !hasRegistration(core.session, wrapped.scope) ||
      !core.catalog.includesServer(wrapped.scope)
    ) {
      throw resourceNotFound(uri);
    }
    return wrapped;
  }
  // A server's own URI (e.g. from a resource_link in a tool result): fine when one server has it.
  const holders = await core.catalog.resourcesWithUri(uri);
  if (holders.length === 1) return holders[0]!;
  if (holders.length === 0) throw resourceNotFound(uri);
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Resource ${uri} is served by ${holders.map((h) => `\`${scopeLabel(h.scope)}\``).join(', ')}; read ${holders.map((h) => wrapResourceUri(h.scope, uri)).join(' or ')}`,
    { uri },
  );
}

function hasRegistration(session: Session, scope: RegistrationScope): boolean {
  return session
    .scopes()
    .some((s) => s.name === scope.name && s.environmentId === scope.environmentId);
}

function resourceNotFound(uri: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri} not found`, { uri });
}

/** A failed read or prompt: a JSON-RPC error, keeping the server's own code when it sent one. */
function protocolFailure(error: unknown): never {
  const served = error instanceof RequestFailedError ? error.serverError : null;
  const code =
    served !== null && Number.isInteger(served.code)
      ? served.code
      : ProtocolErrorCode.InternalError;
  throw new ProtocolError(code, errorText(error), served?.data);
}
