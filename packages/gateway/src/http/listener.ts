/**
 * The gateway over streamable HTTP on loopback: `http://127.0.0.1:PORT/mcp`. The app-server's
 * listener rules apply (@mcprt/base's listenerGuard: loopback only, a bearer token of at least 16 characters,
 * compared in constant time; 401 before anything else is read), plus Host/Origin checks against
 * DNS rebinding. 2026-07-28 requests go to the SDK's `createMcpHandler` (per-request instances,
 * `subscriptions/listen` streams fed by the gateway's change notifier); 2025 requests go to
 * sessions (legacySessions.ts), routed by the SDK's own `isLegacyRequest`. Failing to listen is
 * one clear line naming the URL and the reason (the app-server's `ListenError`).
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  bearerMatches,
  bracketed,
  checkListenerOptions,
  ListenError,
  unbracket,
} from '@mcprt/base';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';

import type { Gateway } from '../gateway.js';
import { LegacySessions } from './legacySessions.js';
import { BodyTooLargeError, sendWebResponse, toWebRequest } from './webBridge.js';

export const GATEWAY_HTTP_PATH = '/mcp';
const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export interface GatewayHttpOptions {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  readonly token: string;
}

export interface GatewayHttpListener {
  /** `http://HOST:PORT/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenGatewayHttp(
  gateway: Gateway,
  options: GatewayHttpOptions,
): Promise<GatewayHttpListener> {
  checkListenerOptions({ host: options.host, token: options.token }, 'HTTP');
  gateway.start();
  const modern = createMcpHandler(({ era }) => gateway.createServer({ era, track: false }), {
    legacy: 'reject',
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    onerror: (error) => gateway.log('debug', `http: ${error.message}`),
  });
  const legacy = new LegacySessions(gateway, MAX_REQUEST_BODY_BYTES);
  const hostnames = [...new Set([...localhostAllowedHostnames(), bracketed(options.host)])];

  const http = createServer((req, res) => {
    void (async () => {
      if (!bearerMatches(req.headers['authorization'], options.token)) {
        res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcprt"' }).end('unauthorized\n');
        return;
      }
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path !== GATEWAY_HTTP_PATH) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}\n`);
        return;
      }
      const request = await toWebRequest(req, res, MAX_REQUEST_BODY_BYTES);
      const rejected =
        hostHeaderValidationResponse(request, hostnames) ??
        originValidationResponse(request, localhostAllowedOrigins());
      const response =
        rejected ??
        ((await isLegacyRequest(request, undefined, {
          maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
        }))
          ? await legacy.handle(request)
          : await modern.fetch(request));
      await sendWebResponse(res, response);
    })().catch((error: unknown) => {
      if (res.headersSent) return void res.end();
      if (error instanceof BodyTooLargeError) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end(`${error.message}\n`);
        return;
      }
      gateway.log('error', `http: ${error instanceof Error ? error.message : String(error)}`);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
    });
  });

  const wanted = `http://${bracketed(options.host)}:${options.port}${GATEWAY_HTTP_PATH}`;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, unbracket(options.host), () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await modern.close();
    throw new ListenError(wanted, error as NodeJS.ErrnoException);
  }
  const forget = gateway.notifier.addPublisher(modern.notify);
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${bracketed(options.host)}:${port}${GATEWAY_HTTP_PATH}`,
    close: async () => {
      forget();
      await legacy.close();
      await modern.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
