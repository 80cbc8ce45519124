/**
 * `mcprt serve --listen http(s)://…`: the listen URL, `--tls-cert`/`--tls-key` (both with
 * https://, neither otherwise), the listener rules checked before anything starts (@mcprt/base's
 * listenerGuard: plain HTTP loopback-only; beyond loopback HTTPS and `[serve.auth] mode =
 * "oauth"`), and the listener itself with its authenticator — the static token (tokenFile.ts) or
 * OAuth access tokens. Every refusal is one line naming the missing piece.
 */

import { checkListenerOptions } from '@mcprt/base';
import { createOAuthAuthenticator, listenGatewayHttp } from '@mcprt/gateway';
import type { Gateway, GatewayHttpListener } from '@mcprt/gateway';
import { protectFromSandbox } from '@mcprt/runtime';
import type { ServeAuthConfig } from '@mcprt/runtime';

import { UsageError } from './args.js';
import { readOrCreateToken } from './tokenFile.js';

const LISTEN_USAGE = 'serve: --listen must be stdio, http://127.0.0.1:PORT or https://HOST:PORT';

export interface HttpListenOptions {
  readonly url: URL;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined;
  readonly tokenFile: string | undefined;
}

/** `--listen` other than stdio, with the TLS flags; usage errors name the flag. */
export function parseHttpListen(
  listen: string,
  certFile: string | undefined,
  keyFile: string | undefined,
  tokenFile: string | undefined,
): HttpListenOptions {
  let url: URL;
  try {
    url = new URL(listen);
  } catch {
    throw new UsageError(`${LISTEN_USAGE}, got '${listen}'`);
  }
  const path = url.pathname.replace(/\/$/, '');
  const scheme = url.protocol === 'http:' || url.protocol === 'https:';
  if (!scheme || (path !== '' && path !== '/mcp') || url.search !== '' || url.username !== '') {
    throw new UsageError(`${LISTEN_USAGE}, got '${listen}'`);
  }
  if (url.protocol === 'http:') {
    const flag = certFile !== undefined ? 'tls-cert' : keyFile !== undefined ? 'tls-key' : null;
    if (flag !== null) throw new UsageError(`serve: --${flag} only applies to --listen https://…`);
    return { url, tls: undefined, tokenFile };
  }
  if (certFile === undefined || keyFile === undefined) {
    const missing = [
      ...(certFile === undefined ? ['--tls-cert FILE'] : []),
      ...(keyFile === undefined ? ['--tls-key FILE'] : []),
    ];
    throw new UsageError(`serve: --listen https://… needs ${missing.join(' and ')}`);
  }
  return { url, tls: { certFile, keyFile }, tokenFile };
}

/** The listener rules (loopback, TLS, auth mode) before anything is started or written. */
export function checkHttpListen(options: HttpListenOptions, auth: ServeAuthConfig): void {
  if (auth.mode === 'oauth' && options.tokenFile !== undefined) {
    throw new UsageError(
      'serve: --http-token-file does not apply with [serve.auth] mode = "oauth" (callers present OAuth access tokens)',
    );
  }
  const { url, tls } = options;
  checkListenerOptions({ host: url.hostname, tls: tls !== undefined, authMode: auth.mode }, 'HTTP');
}

/** Listen; `credentials` says how callers authenticate (the token's file, never the token). */
export async function listenHttp(
  gateway: Gateway,
  options: HttpListenOptions,
  auth: ServeAuthConfig,
  home: string,
  replicas: readonly string[] = [],
): Promise<{ listener: GatewayHttpListener; credentials: string }> {
  const { url, tls } = options;
  // Whoever reads the key can pose as this gateway: no sandboxed command may see it.
  if (tls !== undefined) protectFromSandbox(tls.keyFile);
  const base = {
    host: url.hostname,
    port: Number(url.port || '0'),
    ...(tls ? { tls } : {}),
    replicas,
  };
  const oauth = auth.oauth;
  if (auth.mode === 'oauth' && oauth !== null) {
    const listener = await listenGatewayHttp(gateway, {
      ...base,
      authMode: 'oauth',
      // The resource defaults to the URL it listens on (known once it listens: port 0).
      authenticator: (listenUrl) =>
        createOAuthAuthenticator(oauth, {
          listenUrl,
          log: (message) => gateway.logLocal('warning', `oauth: ${message}`),
        }),
    });
    return { listener, credentials: `OAuth access tokens of ${oauth.issuer}` };
  }
  const token = readOrCreateToken({
    file: options.tokenFile,
    flag: 'http-token-file',
    command: 'serve',
    home,
    generatedName: 'serve.token',
  });
  const listener = await listenGatewayHttp(gateway, { ...base, token: token.value });
  return { listener, credentials: `bearer token in ${token.file}` };
}
