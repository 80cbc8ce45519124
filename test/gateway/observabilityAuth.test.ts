/**
 * Health, readiness and metrics of an in-process gateway: in `[serve.auth] mode = "oauth"`
 * `/readyz` and `/metrics` take exactly what `/mcp` takes — an access token of the real
 * authorization server (oidc-provider) for this listener — while `/healthz` and the RFC 9728
 * metadata stay public; and calls over stdio (the fast path and the SDK handler) are counted in
 * the same metrics as HTTP ones.
 */

import { PassThrough } from 'node:stream';

import {
  createOAuthAuthenticator,
  Gateway,
  listenGatewayHttp,
  serveGatewayStdio,
} from '@mcprt/gateway';
import type { GatewayHttpListener, GatewayStdioHandle } from '@mcprt/gateway';
import { Runtime } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { clientCredentialsToken } from '../fixtures/auth/accessTokens.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { echoServer, makeHome, tempDir } from '../helpers/fixtures.js';
import { parseExposition, valueOf } from '../helpers/promText.js';

const SVC = { id: 'svc', secret: 'svc-secret-0123456789abcdefghij' };

describe('oauth mode', () => {
  let as: AuthServer;
  let runtime: Runtime;
  let gateway: Gateway;
  let listener: GatewayHttpListener;
  let base: string;

  beforeAll(async () => {
    as = await startAuthServer({
      jwtAccessTokens: true,
      dpop: false,
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
    runtime = Runtime.load({
      home: makeHome(echoServer('mcp_servers.echo', 'echo', 'required = true')),
      processEnv: process.env,
    });
    gateway = new Gateway({ runtime, cwd: tempDir(), log: () => undefined });
    listener = await listenGatewayHttp(gateway, {
      host: '127.0.0.1',
      port: 0,
      authMode: 'oauth',
      authenticator: (listenUrl) =>
        createOAuthAuthenticator(
          {
            issuer: as.issuer,
            resource: null,
            scopes: ['mcp:tools'],
            groupsClaim: 'groups',
            clockSkewSec: 0,
            jwksUri: null,
          },
          { listenUrl, log: () => undefined },
        ),
    });
    base = new URL(listener.url).origin;
  });
  afterAll(async () => {
    await listener?.close();
    await gateway?.close();
    await runtime?.close();
    await as?.stop();
  });

  const get = (path: string, token?: string) =>
    fetch(`${base}${path}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('answers /healthz and the metadata without a token', async () => {
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok\n');
    expect((await get('/.well-known/oauth-protected-resource/mcp')).status).toBe(200);
  });

  it('refuses /readyz and /metrics without a valid access token, with the challenge', async () => {
    for (const path of ['/readyz', '/metrics']) {
      const none = await get(path);
      expect(none.status, path).toBe(401);
      expect(none.headers.get('www-authenticate'), path).toMatch(/^Bearer .*resource_metadata=/);
      expect((await get(path, 'not-a-jwt-0123456789')).status, path).toBe(401);
      // A real token, but for another resource.
      const elsewhere = await clientCredentialsToken(as, SVC, `${base}/other`, 'mcp:tools');
      expect((await get(path, elsewhere)).status, path).toBe(401);
    }
  });

  it('answers them for an access token of this listener', async () => {
    const token = await clientCredentialsToken(as, SVC, listener.url, 'mcp:tools');
    const deadline = Date.now() + 15_000;
    let ready = await get('/readyz', token);
    while (ready.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      ready = await get('/readyz', token);
    }
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    const metrics = await get('/metrics', token);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(valueOf(parseExposition(text), 'mcprt_registrations', { state: 'ready' })).toBe(1);
    expect(text).not.toContain(token);
  });
});

describe('calls over stdio', () => {
  let runtime: Runtime;
  let gateway: Gateway;
  let handle: GatewayStdioHandle;
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers = new Map<number, Record<string, unknown>>();
  let buffered = '';

  beforeAll(() => {
    runtime = Runtime.load({
      home: makeHome(echoServer('mcp_servers.echo', 'echo')),
      processEnv: process.env,
    });
    gateway = new Gateway({ runtime, cwd: tempDir(), log: () => undefined });
    handle = serveGatewayStdio(gateway, { stdin, stdout });
    stdout.on('data', (chunk: Buffer) => {
      buffered += String(chunk);
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, i)) as Record<string, unknown>;
        buffered = buffered.slice(i + 1);
        if (typeof message['id'] === 'number') answers.set(message['id'], message);
      }
    });
  });
  afterAll(async () => {
    stdin.end();
    await handle?.close();
    await gateway?.close();
    await runtime?.close();
  });

  const request = async (id: number, method: string, params: unknown) => {
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    const deadline = Date.now() + 20_000;
    while (!answers.has(id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const answer = answers.get(id);
    expect(answer, `answer to ${method}`).toBeDefined();
    return answer!;
  };

  it('counts them in the gateway’s metrics', async () => {
    await request(1, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      request(id, 'tools/call', { name, arguments: args });
    expect(await call(2, 'echo__echo', { message: 'hi' })).toMatchObject({
      result: { content: [{ type: 'text', text: 'echo: hi' }] },
    });
    expect(await call(3, 'echo__echo', { message: 'again' })).toHaveProperty('result');
    expect(await call(4, 'echo__fail', {})).toMatchObject({ result: { isError: true } });
    const exposition = parseExposition(await gateway.observability.metrics.scrape());
    const labels = { server: 'echo', environment: '' };
    expect(valueOf(exposition, 'mcprt_tool_calls_total', { ...labels, outcome: 'ok' })).toBe(2);
    expect(
      valueOf(exposition, 'mcprt_tool_calls_total', { ...labels, outcome: 'tool_error' }),
    ).toBe(1);
    expect(valueOf(exposition, 'mcprt_tool_call_duration_seconds_count', labels)).toBe(3);
  });
});
