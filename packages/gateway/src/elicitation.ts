/**
 * Elicitation between the runtime and the gateway's client: an underlying server's request
 * (form or URL) becomes an embedded `elicitation/create` of an `input_required` result, its
 * message prefixed with `[server@env]` and its `_meta` naming the registration; the client's
 * bare answers become the runtime's `ElicitationResponse`s. Which modes the client can answer is
 * read from its declared capabilities (the request envelope on 2026-07-28, `initialize` on 2025).
 */

import type { ElicitationRequest, ElicitationResponse } from '@mcprt/runtime';
import { scopeLabel } from '@mcprt/runtime';
import { CLIENT_CAPABILITIES_META_KEY, inputResponse } from '@modelcontextprotocol/server';
import type {
  ClientCapabilities,
  InputRequest,
  InputRequests,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';

import { withRegistrationMeta } from './naming.js';
import type { ElicitationModes } from './operations.js';

/** The embedded requests of one `input_required` round. */
export function inputRequestsFor(requests: ReadonlyMap<string, ElicitationRequest>): InputRequests {
  const out: InputRequests = {};
  for (const [key, request] of requests) out[key] = embeddedRequest(request);
  return out;
}

/** One question as the embedded `elicitation/create` a client answers. */
export function embeddedRequest(request: ElicitationRequest): InputRequest {
  const message = `[${scopeLabel(request.scope)}] ${request.message}`;
  // The asking server's own `_meta`, minus its progress token (meaningless to our client).
  const _meta = withRegistrationMeta(withoutProgressToken(request._meta), request.scope);
  if (request.mode === 'url') {
    return {
      method: 'elicitation/create',
      params: { mode: 'url', message, url: request.url ?? '', _meta },
    } as InputRequest;
  }
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message,
      requestedSchema: request.requestedSchema ?? { type: 'object', properties: {} },
      _meta,
    },
  } as InputRequest;
}

function withoutProgressToken(meta: unknown): unknown {
  if (typeof meta !== 'object' || meta === null || !('progressToken' in meta)) return meta;
  return Object.fromEntries(Object.entries(meta).filter(([key]) => key !== 'progressToken'));
}

/** The client's answers for the keys it was asked under (anything else is ignored). */
export function answersFrom(
  responses: Record<string, unknown> | undefined,
): Map<string, ElicitationResponse> {
  const answers = new Map<string, ElicitationResponse>();
  for (const key of Object.keys(responses ?? {})) {
    const view = inputResponse(responses, key);
    if (view.kind !== 'elicit') continue;
    answers.set(key, {
      action: view.action,
      ...(view.action === 'accept' ? { content: view.content ?? {} } : {}),
    });
  }
  return answers;
}

/** Which elicitation modes the client of this request declared. */
export function clientModes(server: Server, ctx: ServerContext): ElicitationModes {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return modesOf(fromEnvelope ?? server.getClientCapabilities());
}

/** Which elicitation modes declared capabilities allow. */
export function modesOf(capabilities: ClientCapabilities | undefined): ElicitationModes {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (elicitation === undefined) return { form: false, url: false };
  // A bare `elicitation: {}` means form mode (the spec's backwards-compatible reading).
  return {
    form: elicitation.form !== undefined || elicitation.url === undefined,
    url: elicitation.url !== undefined,
  };
}
