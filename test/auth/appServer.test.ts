// `mcpServer/oauth/login` over the real app-server (the built CLI) against a real authorization
// server: the answer comes at once with the URL and a login id; this test plays the browser and
// lands on the runtime's loopback callback; `mcpServer/oauthLogin/completed` follows and the
// thread's registration reconnects by itself (no reload, no restart), then serves a tool call.
// Also: the environment selector, Codex's error texts, and no token in anything on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { assertCodexSchema } from '../helpers/codexSchema.js';
import type { Message, RawAppServer } from '../helpers/rpcClient.js';
import { secretValues } from './helpers.js';
import { startTwoScopes, stopTwoScopes } from './twoScopes.js';
import type { TwoScopes } from './twoScopes.js';

describe('mcpServer/oauth/login (app-server)', () => {
  let asA: AuthServer;
  let asB: AuthServer;
  let rsA: ProtectedServer;
  let home: string;
  let server: RawAppServer;
  let threadId: string;

  let setup: TwoScopes | undefined;

  beforeAll(async () => {
    setup = await startTwoScopes();
    ({ asA, asB, rsA, home, server, threadId } = setup);
  });

  afterAll(async () => {
    await stopTwoScopes(setup);
  });

  const statusUpdate = (env: string, status: string) => (m: Message) =>
    m.method === 'mcpServer/startupStatus/updated' &&
    (m.params as Record<string, unknown>)['environmentId'] === env &&
    (m.params as Record<string, unknown>)['status'] === status;

  it('logs in to one registration and the running thread reconnects it', async () => {
    await server.waitFor(statusUpdate('a', 'failed'));
    await server.waitFor(statusUpdate('b', 'failed'));
    const before = server.messages.length;
    const result = await server.call<{ authorizationUrl: string; loginId: string }>(
      'mcpServer/oauth/login',
      { name: 'shared', environmentId: 'a', threadId },
    );
    expect(result.loginId).toEqual(expect.any(String));
    assertCodexSchema('McpServerOauthLoginResponse', result);
    const url = new URL(result.authorizationUrl);
    expect(url.origin).toBe(asA.issuer);
    expect(url.searchParams.get('resource')).toBe(rsA.url);
    await authorize(result.authorizationUrl, url.searchParams.get('redirect_uri')!, {
      deliver: true,
    });
    const completed = await server.waitFor((m) => m.method === 'mcpServer/oauthLogin/completed');
    assertCodexSchema('McpServerOauthLoginCompletedNotification', completed.params);
    expect(completed.params).toEqual({
      name: 'shared',
      environmentId: 'a',
      threadId,
      loginId: result.loginId,
      success: true,
    });
    await server.waitFor(
      (m) => server.messages.indexOf(m) >= before && statusUpdate('a', 'ready')(m),
    );
    const call = await server.call<{ content: { text: string }[] }>('mcpServer/tool/call', {
      threadId,
      server: 'shared',
      environmentId: 'a',
      tool: 'whoami',
    });
    expect(call.content[0]!.text).toBe('shared-a: ok');
    expect(asB.grants['authorization_code']).toBeUndefined();

    const list = await server.call<{ data: Record<string, unknown>[] }>('mcpServerStatus/list', {
      threadId,
    });
    const auth = Object.fromEntries(
      list.data
        .filter((s) => s['name'] === 'shared')
        .map((s) => [s['environmentId'], s['authStatus']]),
    );
    expect(auth).toEqual({ a: 'oAuth', b: 'notLoggedIn' });
  });

  it('reports a failed login in the notification', async () => {
    const result = await server.call<{ authorizationUrl: string; loginId: string }>(
      'mcpServer/oauth/login',
      { name: 'shared', environmentId: 'b', timeoutSecs: 1 },
    );
    const completed = await server.waitFor(
      (m) =>
        m.method === 'mcpServer/oauthLogin/completed' &&
        (m.params as Record<string, unknown>)['loginId'] === result.loginId,
    );
    assertCodexSchema('McpServerOauthLoginCompletedNotification', completed.params);
    expect(completed.params).toMatchObject({
      name: 'shared',
      environmentId: 'b',
      threadId: null,
      success: false,
      error: 'timed out waiting for OAuth callback',
    });
  });

  it("answers Codex's errors for unknown and non-HTTP servers", async () => {
    const unknown = await server.request('mcpServer/oauth/login', { name: 'nope' });
    expect(unknown.error).toMatchObject({
      code: -32600,
      message: "No MCP server named 'nope' found.",
    });
    const stdio = await server.request('mcpServer/oauth/login', { name: 'local-tool' });
    expect(stdio.error).toMatchObject({
      code: -32600,
      message: 'OAuth login is only supported for streamable HTTP servers.',
    });
    const env = await server.request('mcpServer/oauth/login', {
      name: 'shared',
      environmentId: 'zz',
    });
    expect(env.error).toMatchObject({ code: -32600, message: 'unknown environment id `zz`' });
  });

  it('never puts a token on the wire or in its log', () => {
    const wire = JSON.stringify(server.messages) + server.stderr.join('');
    const secrets = [...secretValues(home), ...rsA.acceptedTokens];
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const secret of secrets) expect(wire).not.toContain(secret);
  });
});
