/**
 * Where an authorization response arrives: a tiny HTTP server on 127.0.0.1 (::1 for a callback
 * URL naming `[::1]`; the configured callback port, else any free one) that accepts exactly one
 * valid redirect on the callback path, or a redirect URL a person pastes (`--no-browser`, the
 * browser on another machine). A response must carry our `state`; `error=…` ends the login with
 * the provider's words; anything else is answered `400 Invalid OAuth callback` and the listener
 * keeps waiting.
 */

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { OAuthLoginError } from './errors.js';
import { providerText } from './providerText.js';

export interface AuthorizationResponse {
  readonly code: string;
  readonly iss?: string;
}

const SUCCESS_PAGE = 'Authentication complete. You may close this window.';
/**
 * Every page is plain text, never sniffed into HTML (the provider's error text is shown), and ends
 * its connection: no kept-alive socket reaches the handler after the listener has closed.
 */
const PLAIN = {
  'content-type': 'text/plain; charset=utf-8',
  'x-content-type-options': 'nosniff',
  connection: 'close',
};

/**
 * The host the listener binds: the loopback address the configured callback URL names (`[::1]`
 * binds ::1 only, `localhost` and none 127.0.0.1); another host binds every address.
 */
function bindHost(callbackUrl: URL | null): string {
  const host = callbackUrl?.hostname;
  if (host === '[::1]') return '::1';
  return !host || host === 'localhost' || host === '127.0.0.1' ? '127.0.0.1' : '0.0.0.0';
}

export class CallbackListener {
  private server: Server | null = null;
  private settle!: { resolve: (r: AuthorizationResponse) => void; reject: (e: Error) => void };
  private done = false;
  readonly result: Promise<AuthorizationResponse>;
  redirectUri = '';

  constructor(
    private readonly state: string,
    private readonly callbackUrl: URL | null,
    private readonly port: number | null,
  ) {
    this.result = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.result.catch(() => undefined);
  }

  get path(): string {
    return this.callbackUrl?.pathname || '/callback';
  }

  async open(): Promise<void> {
    const port = this.port ?? (this.callbackUrl?.port ? Number(this.callbackUrl.port) : 0);
    const host = bindHost(this.callbackUrl);
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== this.path) {
        res.writeHead(404, PLAIN).end('Not found');
        return;
      }
      const outcome = this.accept(url.searchParams);
      res.writeHead(outcome.status, PLAIN).end(outcome.text);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new OAuthLoginError(
            error.code === 'EADDRINUSE'
              ? `the OAuth callback port ${port} on ${host} is already in use: set \`mcp_oauth_callback_port\` (or the server's \`oauth.callback_port\`) to a free port, or remove it to use any free port`
              : `cannot listen for the OAuth callback on ${host}:${port}: ${error.message}`,
            { cause: error },
          ),
        ),
      );
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    const bound = (server.address() as AddressInfo).port;
    this.redirectUri = this.callbackUrl?.href ?? `http://127.0.0.1:${bound}${this.path}`;
  }

  /**
   * A redirect URL (or just its query) pasted by a person. True when it settled the login (a
   * code, or the provider's error); false when it is not this login's redirect (ignored).
   */
  submit(text: string): boolean {
    const trimmed = text.trim();
    let params: URLSearchParams;
    try {
      params = new URL(trimmed).searchParams;
    } catch {
      params = new URLSearchParams(trimmed.startsWith('?') ? trimmed.slice(1) : trimmed);
    }
    if (this.done) return false;
    this.accept(params);
    return this.done;
  }

  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.settle.reject(error);
    void this.close();
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    // Let a response being written (the success or error page) reach the browser first.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 200).unref();
    await closed;
  }

  private accept(params: URLSearchParams): { status: number; text: string } {
    const error = params.get('error');
    if (error !== null && params.get('state') === this.state) {
      // The provider's words, one line and clipped (`error_uri` is never shown).
      const description = params.get('error_description');
      const message = description
        ? `OAuth provider returned \`${providerText(error, 80)}\`: ${providerText(description)}`
        : `OAuth provider returned \`${providerText(error, 80)}\``;
      this.fail(new OAuthLoginError(message));
      return { status: 400, text: message };
    }
    const code = params.get('code');
    if (code === null || params.get('state') !== this.state || this.done) {
      return { status: 400, text: 'Invalid OAuth callback' };
    }
    this.done = true;
    const iss = params.get('iss');
    this.settle.resolve({ code, ...(iss !== null ? { iss } : {}) });
    void this.close();
    return { status: 200, text: SUCCESS_PAGE };
  }
}
