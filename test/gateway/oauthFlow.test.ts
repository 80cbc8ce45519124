// The whole MCP authorization flow against `mcprt serve` in oauth mode: the built CLI listening on
// http://127.0.0.1 with `[serve.auth] mode = "oauth"` naming a real authorization server
// (oidc-provider, JWT access tokens), and the MCP SDK's own client with an OAuthClientProvider.
// The client's first request gets 401 with the RFC 9728 metadata URL; the SDK reads the
// gateway's metadata, discovers the authorization server, registers dynamically and builds the
// PKCE authorization URL for the gateway's resource; a user agent consents; `finishAuth` redeems
// the code; the next connection lists and calls the tools. A token for another resource is
// refused on the wire with the exact challenge, and no token shows up in the gateway's output.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { clientCredentialsToken } from '../fixtures/auth/accessTokens.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { echoServer, makeHome, NODE, q } from '../helpers/fixtures.js';
import { historyBytes, recoveredHistory } from '../helpers/history.js';
import { CLI, texts } from './helpers.js';

const REDIRECT = 'http://127.0.0.1:9/oauth/callback';
const SVC = { id: 'svc', secret: 'svc-secret-0123456789abcdefghij' };

/** An in-memory OAuthClientProvider: the SDK drives discovery, registration and PKCE. */
class MemoryProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private client: StoredOAuthClientInformation | undefined;
  private saved: StoredOAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'gateway-oauth-test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  accessToken(): string {
    return this.saved?.access_token ?? '';
  }
}

describe('mcprt serve in oauth mode: the SDK client logs in and calls a tool', () => {
  let as: AuthServer;
  let gateway: ChildProcess;
  let url = '';
  let stderr = '';
  let home = '';
  let userToken = '';

  beforeAll(async () => {
    as = await startAuthServer({
      jwtAccessTokens: true,
      dpop: false,
      resourceScopes: 'mcp:tools',
      clients: [
        {
          client_id: SVC.id,
          client_secret: SVC.secret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          scope: 'mcp:tools',
        },
      ],
    });
    home = makeHome(
      `${echoServer('mcp_servers.docs', 'docs')}\n[serve.auth]\nmode = "oauth"\nissuer = ${q(as.issuer)}\nscopes = ["mcp:tools"]\n`,
    );
    gateway = spawn(NODE, [CLI, '--home', home, 'serve', '--listen', 'http://127.0.0.1:0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      gateway.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      gateway.stderr!.on('data', (d: Buffer) => {
        stderr += String(d);
        const m = /listening on (\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
    });
  });
  afterAll(async () => {
    if (gateway.exitCode === null) {
      const exited = new Promise((resolve) => gateway.once('exit', resolve));
      gateway.kill('SIGTERM');
      await exited;
    }
    await as.stop();
  });

  it('401 → metadata → dynamic registration → consent → token → tools', async () => {
    expect(stderr).toContain(`OAuth access tokens of ${as.issuer}`);
    const provider = new MemoryProvider();
    const first = new Client({ name: 'oauth-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.searchParams.get('resource')).toBe(url);
    // The gateway's scopes_supported (the SDK adds offline_access for a refresh token).
    expect(authorizationUrl?.searchParams.get('scope')?.split(' ')).toContain('mcp:tools');
    const callback = new URL(await authorize(authorizationUrl!.href, REDIRECT));
    await transport.finishAuth(callback.searchParams);
    expect(as.resources).toContain(url);

    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }),
    );
    const status = await client.readResource({ uri: 'mcprt://gateway/status' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('docs__echo');
    const result = await client.callTool({ name: 'docs__echo', arguments: { message: 'hi' } });
    expect(texts(result).join('')).toContain('hi');
    await client.close();

    const token = provider.accessToken();
    userToken = token;
    expect(token.split('.')).toHaveLength(3);
    expect(stderr).not.toContain(token);
    expect(stderr).not.toContain(token.split('.')[2]!);
    expect(JSON.stringify(status)).not.toContain(token.split('.')[2]!);
  });

  it('on the wire: the metadata without a token, the exact challenges', async () => {
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', url).href;
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: url,
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'mcprt gateway',
    });

    const post = (authorization?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
    const none = await post();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);

    const other = await clientCredentialsToken(as, SVC, 'http://127.0.0.1:9/other', 'mcp:tools');
    const refused = await post(`Bearer ${other}`);
    const body = await refused.text();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="the token is not for this resource", resource_metadata="${metadataUrl}"`,
    );
    expect(body).not.toContain(other);
    expect(stderr).not.toContain(other);
  });

  it('history names the caller and holds no token', async () => {
    expect(userToken).not.toBe('');
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
    const rows = recoveredHistory<{ tool: string; caller_subject: string | null }>(
      home,
      'tool, caller_subject',
    );
    expect(rows).toContainEqual({ tool: 'echo', caller_subject: 'test-user' });
    const bytes = historyBytes(home);
    expect(bytes).not.toContain(userToken);
    expect(bytes).not.toContain(userToken.split('.')[2]!);
  });
});
