/**
 * The gateway over streamable HTTP at `/mcp`: plain HTTP on loopback, or HTTPS (`tls`, tls.ts);
 * beyond loopback only with HTTPS and OAuth callers (@mcprt/base's listenerGuard). Each request:
 * its Host and target checked (requestUrl.ts: 400), a public document served without a token
 * (RFC 9728 metadata in oauth mode), the authenticator (auth/: 401/403 before the body is read),
 * the path, and — on loopback — Host and Origin checks against DNS rebinding. The caller reaches
 * every server instance: 2026-07-28 requests through the SDK's `createMcpHandler` (per-request
 * instances, `subscriptions/listen` streams fed by the change notifier; callerAuthInfo.ts), 2025
 * requests the caller's own sessions (legacySessions.ts), told apart by `isLegacyRequest`; with
 * `[serve] replicas`, a retry whose `requestState` another replica minted goes to that replica
 * (replicaForward.ts). Lines a request causes go to stderr only (`logLocal`), never to clients.
 * Failing to listen is one line naming the URL and the reason (`ListenError`). `/healthz`,
 * `/readyz` and `/metrics` are the gateway's observability/ (before the authenticator for what
 * is public, else after it).
 */

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import {
  bracketed,
  checkListenerOptions,
  isLoopbackHost,
  ListenError,
  unbracket,
} from '@mcprt/base';
import type { ServeAuthMode } from '@mcprt/runtime';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';

import type { HttpAuthenticator } from '../auth/authenticator.js';
import { createTokenAuthenticator } from '../auth/tokenAuthenticator.js';
import type { Gateway } from '../gateway.js';
import { authInfoFor, callerOf } from './callerAuthInfo.js';
import { LegacySessions } from './legacySessions.js';
import { replicaRouter } from './replicaForward.js';
import type { ReplicaRouter } from './replicaForward.js';
import { BAD_REQUEST_TEXT, requestUrl } from './requestUrl.js';
import type { GatewayTlsFiles } from './tls.js';
import { readTlsFiles } from './tls.js';
import { BodyTooLargeError, sendWebResponse, toWebRequest } from './webBridge.js';

/** How long an idle client connection is kept (the client's request may be on its way). */
const KEEP_ALIVE_MS = 65_000;

export const GATEWAY_HTTP_PATH = '/mcp';
const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
const TEXT = { 'content-type': 'text/plain' };

export interface GatewayHttpOptions {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  /** The static bearer token: token mode when no `authenticator` is given. */
  readonly token?: string;
  /**
   * How callers are identified (default: the static `token`). A function is called with the
   * listener's URL once it listens (an OAuth resource defaults to that URL).
   */
  readonly authenticator?:
    HttpAuthenticator | ((url: string) => HttpAuthenticator | Promise<HttpAuthenticator>);
  /** The authenticator's `[serve.auth] mode`, for the listener rules (default `token`). */
  readonly authMode?: ServeAuthMode;
  /** Serve HTTPS with this certificate and key. */
  readonly tls?: GatewayTlsFiles;
  /** `[serve] replicas`: the origins of every replica, this one included (replicaForward.ts). */
  readonly replicas?: readonly string[];
}

export interface GatewayHttpListener {
  /** `http(s)://HOST:PORT/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenGatewayHttp(
  gateway: Gateway,
  options: GatewayHttpOptions,
): Promise<GatewayHttpListener> {
  const { host, authMode = 'token' } = options;
  const given = options.authenticator;
  checkListenerOptions(
    {
      host,
      tls: options.tls !== undefined,
      authMode,
      ...(given === undefined ? { token: options.token ?? '' } : {}),
    },
    'HTTP',
  );
  if (authMode === 'oauth' && given === undefined) {
    throw new Error('[serve.auth] mode = "oauth" needs an OAuth authenticator');
  }
  const credentials = options.tls === undefined ? undefined : readTlsFiles(options.tls);
  let authenticator =
    given === undefined
      ? createTokenAuthenticator(options.token ?? '')
      : typeof given === 'function'
        ? undefined
        : given;
  const scheme = credentials === undefined ? 'http' : 'https';
  gateway.servesManyClients();
  gateway.start();
  const modern = createMcpHandler(
    ({ era, authInfo }) => gateway.createServer({ era, track: false, caller: callerOf(authInfo) }),
    {
      legacy: 'reject',
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
      onerror: (error) => gateway.logLocal('debug', `http: ${error.message}`),
    },
  );
  const legacy = new LegacySessions(gateway, MAX_REQUEST_BODY_BYTES);
  // Beyond loopback the Host is whatever name the team uses: OAuth tokens, not the Host, bind it.
  const hostnames = isLoopbackHost(host)
    ? [...new Set([...localhostAllowedHostnames(), bracketed(host)])]
    : null;
  let ownHost = bracketed(host);
  let replicas: ReplicaRouter | null = null;

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req, scheme, ownHost);
    if (url === null) return void res.writeHead(400, TEXT).end(BAD_REQUEST_TEXT);
    // `/healthz` (and with `metrics_public`, `/readyz` and `/metrics`): no credential needed —
    // on loopback only for a Host naming this machine (a DNS-rebinding page gets the 401).
    const hostOk = hostnames === null || hostnames.includes(url.hostname);
    if (gateway.observability.serve(req, res, url.pathname, false, hostOk)) return;
    if (authenticator === undefined) return void res.writeHead(503, TEXT).end('starting\n');
    const document = req.method === 'GET' ? authenticator.publicDocument(url.pathname) : null;
    if (document !== null) {
      return void res.writeHead(200, { 'content-type': document.contentType }).end(document.body);
    }
    const outcome = await authenticator.authenticate(req.headers['authorization']);
    if (!outcome.ok) {
      return void res.writeHead(outcome.status, { ...TEXT, ...outcome.headers }).end(outcome.body);
    }
    if (gateway.observability.serve(req, res, url.pathname, true)) return;
    if (url.pathname !== GATEWAY_HTTP_PATH) {
      return void res.writeHead(404, TEXT).end(`not found: ${url.pathname}\n`);
    }
    const request = await toWebRequest(req, res, url, MAX_REQUEST_BODY_BYTES);
    const rejected =
      (hostnames === null ? undefined : hostHeaderValidationResponse(request, hostnames)) ??
      originValidationResponse(request, localhostAllowedOrigins());
    // A retry for an operation another replica holds is answered by that replica.
    const forwarded =
      replicas === null || rejected !== undefined ? undefined : await replicas.route(request);
    const response =
      rejected ??
      forwarded ??
      ((await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_REQUEST_BODY_BYTES }))
        ? await legacy.handle(request, outcome.caller)
        : await modern.fetch(request, { authInfo: authInfoFor(outcome.caller) }));
    await sendWebResponse(res, response);
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.end();
      if (error instanceof BodyTooLargeError) {
        return void res.writeHead(413, TEXT).end(`${error.message}\n`);
      }
      gateway.logLocal('error', `http: ${error instanceof Error ? error.message : String(error)}`);
      res.writeHead(500, TEXT).end('internal error\n');
    });
  };
  const http =
    credentials === undefined ? createServer(handler) : createHttpsServer(credentials, handler);
  gateway.observability.watch(http);
  // Idle client connections live longer than Node's 5 s default, so a client's next request does
  // not race the server closing the connection under it (seen as `fetch failed` under load).
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  http.headersTimeout = KEEP_ALIVE_MS + 1000;

  const wanted = `${scheme}://${bracketed(host)}:${options.port}${GATEWAY_HTTP_PATH}`;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, unbracket(host), () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await modern.close();
    throw new ListenError(wanted, error as NodeJS.ErrnoException);
  }
  const { port } = http.address() as AddressInfo;
  ownHost = `${bracketed(host)}:${port}`;
  const url = `${scheme}://${ownHost}${GATEWAY_HTTP_PATH}`;
  const forget = gateway.notifier.addPublisher(modern.notify);
  const close = async () => {
    forget();
    await legacy.close();
    await modern.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  try {
    replicas = replicaRouter(options.replicas ?? [], url, (line) =>
      gateway.logLocal('warning', line),
    );
  } catch (error) {
    await close();
    throw error;
  }
  if (replicas !== null) gateway.operations.tokenPrefix = replicas.tokenPrefix;
  if (typeof given === 'function') {
    try {
      authenticator = await given(url);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { url, close };
}
