/**
 * Servers' `elicitation/create` requests, relayed to the registration: the SDK request becomes a
 * runtime `ServerElicitation` (form or URL mode, the server's request id, an abort signal for
 * the server's cancellation, the origin of the call that caused it when known — callOrigin.ts),
 * and the host's answer goes back checked — a form answer gets the
 * schema's defaults and must match the requested schema (elicitationReply.ts).
 */

import type { Client } from '@modelcontextprotocol/client';

import type { ElicitationResponse, ServerElicitation } from '../elicitation/types.js';
import { currentCallOrigin, relatedTaskOrigin } from './callOrigin.js';
import { checkFormReply } from './elicitationReply.js';

export function bridgeElicitation(
  client: Client,
  onElicitation: (request: ServerElicitation) => Promise<ElicitationResponse>,
): void {
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const p = request.params as Record<string, unknown>;
    const mode = p['mode'] === 'url' ? 'url' : 'form';
    const reply = await onElicitation({
      requestId: ctx.mcpReq.id,
      mode,
      message: typeof p['message'] === 'string' ? p['message'] : '',
      ...(mode === 'form' ? { requestedSchema: p['requestedSchema'] } : {}),
      ...(typeof p['url'] === 'string' ? { url: p['url'] } : {}),
      ...(typeof p['elicitationId'] === 'string' ? { elicitationId: p['elicitationId'] } : {}),
      _meta: p['_meta'] ?? null,
      signal: ctx.mcpReq.signal,
      // A 2025 task's request names its task: the origin of the call that made it.
      origin: currentCallOrigin() ?? relatedTaskOrigin(client, p['_meta']),
    });
    if (reply.action !== 'accept') return { action: reply.action };
    const content =
      mode === 'form' ? checkFormReply(p['requestedSchema'], reply.content ?? {}) : undefined;
    return {
      action: 'accept' as const,
      ...(content !== undefined
        ? { content: content as Record<string, string | number | boolean | string[]> }
        : {}),
      ...(reply._meta ? { _meta: reply._meta } : {}),
    };
  });
}
