/**
 * Replicas of one gateway behind a load balancer (`[serve] replicas`, docs/deploy.md). A
 * 2026-07-28 input-required round parks its operation in the memory of the replica that served
 * it (operations.ts): the upstream server waiting for the answer is that replica's child. Each
 * replica finds itself in the list by the origin it listens on and mints its `requestState`
 * tokens as `r<index>.<random>`; a retry that the load balancer sends to another replica is
 * passed on as it came (method, body, Authorization and MCP headers) to the origin the list
 * gives for that index, and its answer streamed back. Only origins from the config are ever
 * contacted; a passed-on request carries `mcprt-replica-forwarded` and is never passed on again;
 * an unknown index or an unreachable replica is answered with a JSON-RPC error naming the
 * replica and why (its origin goes to stderr only; the token never appears anywhere).
 */

import { request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** Set on a request one replica passes to another: such a request is never passed on again. */
export const REPLICA_FORWARDED_HEADER = 'mcprt-replica-forwarded';
/** Set on the answer to a passed-on request: the id of the replica that answered it. */
export const REPLICA_ANSWERED_HEADER = 'mcprt-replica';

const TOKEN = /^r(\d{1,4})\.[A-Za-z0-9_-]+$/;
/** Hop-by-hop headers (RFC 9110 §7.6.1) and those the next hop sets itself. */
const NOT_PASSED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  REPLICA_FORWARDED_HEADER,
]);

/** This listener's own origin is not among `[serve] replicas`. */
export class ReplicaConfigError extends Error {
  readonly code = 'REPLICA_NOT_LISTED';
  constructor(own: string, replicas: readonly string[]) {
    super(
      `[serve] replicas lists ${replicas.join(', ')}, but this replica listens on ${own}, ` +
        'which is not among them: list the origin of every replica, spelled as its --listen ' +
        '(or remove replicas for a single gateway)',
    );
    this.name = 'ReplicaConfigError';
  }
}

export interface ReplicaRouter {
  /** `r<index>`: this replica's place in `[serve] replicas`. */
  readonly id: string;
  /** What every `requestState` this replica mints starts with. */
  readonly tokenPrefix: string;
  /** The answer of the replica that holds the operation a retry names; undefined: serve it here. */
  route(request: Request): Promise<Response | undefined>;
}

/**
 * The router of the replica listening on `ownOrigin`; null without `replicas` (a single
 * gateway: nothing changes). Throws ReplicaConfigError when `ownOrigin` is not listed.
 */
export function replicaRouter(
  replicas: readonly string[],
  ownOrigin: string,
  log: (line: string) => void,
): ReplicaRouter | null {
  if (replicas.length === 0) return null;
  const own = new URL(ownOrigin).origin;
  const origins = replicas.map((r) => new URL(r).origin);
  const index = origins.indexOf(own);
  if (index < 0) throw new ReplicaConfigError(own, origins);
  const id = `r${index}`;
  return {
    id,
    tokenPrefix: `${id}.`,
    route: (request) => route(request, index, origins, log),
  };
}

async function route(
  request: Request,
  self: number,
  origins: readonly string[],
  log: (line: string) => void,
): Promise<Response | undefined> {
  if (request.method !== 'POST') return undefined;
  const body = await request.clone().text();
  // Most requests carry no retry state: spare them the parse.
  if (!body.includes('"requestState"')) return undefined;
  const message = parse(body);
  const state = message?.params?.requestState;
  if (message === undefined || typeof state !== 'string') return undefined;
  const match = TOKEN.exec(state);
  // Not a replica token: the handler says it is invalid or expired, as for any unknown one.
  if (match === null || Number(match[1]) === self) return undefined;
  const target = Number(match[1]);
  const id = message.id ?? null;
  const holder = `r${target}`;
  if (target >= origins.length) {
    return failure(
      id,
      -32602,
      `requestState names replica ${holder}, which is not among the ${origins.length} replicas ` +
        `of [serve] replicas (r0–r${origins.length - 1}); nothing was forwarded`,
    );
  }
  const from = request.headers.get(REPLICA_FORWARDED_HEADER);
  if (from !== null) {
    return failure(
      id,
      -32602,
      `requestState names replica ${holder}, but replica ${from} already forwarded this request ` +
        `to r${self}, and a forwarded request is not forwarded again: check that every replica ` +
        'has the same [serve] replicas list',
    );
  }
  const origin = origins[target]!;
  try {
    return await pass(request, body, origin, `r${self}`, holder);
  } catch (error) {
    if (request.signal.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    log(`replicas: could not pass a retry to replica ${holder} (${origin}): ${detail}`);
    // The client hears why, not where: the replicas' addresses stay behind the load balancer.
    const reason = (error as NodeJS.ErrnoException).code ?? 'the connection failed';
    return failure(
      id,
      -32603,
      `the operation of this requestState is held by replica ${holder}, which could not be ` +
        `reached (${reason}); if that replica stopped, its operation is gone: make the call again`,
    );
  }
}

interface JsonRpcRequest {
  readonly id?: string | number | null;
  readonly params?: { readonly requestState?: unknown };
}

function parse(body: string): JsonRpcRequest | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as JsonRpcRequest)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The request to `origin` + its path, as it came; resolves with the answer as it streams. */
function pass(
  request: Request,
  body: string,
  origin: string,
  self: string,
  holder: string,
): Promise<Response> {
  const headers: OutgoingHttpHeaders = { [REPLICA_FORWARDED_HEADER]: self };
  request.headers.forEach((value, name) => {
    if (!NOT_PASSED.has(name)) headers[name] = value;
  });
  const target = new URL(new URL(request.url).pathname, origin);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // node:http, not fetch: no headers or body timeout of its own (a round may take long).
    const outgoing = send(target, { method: 'POST', headers, signal: request.signal }, (res) =>
      resolve(answer(res, holder)),
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

function answer(res: IncomingMessage, holder: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (NOT_PASSED.has(name) || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  headers.set(REPLICA_ANSWERED_HEADER, holder);
  const status = res.statusCode ?? 502;
  const bodyless = status === 204 || status === 304;
  if (bodyless) res.resume();
  return new Response(bodyless ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
    status,
    headers,
  });
}

function failure(id: string | number | null, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status: 200 });
}
