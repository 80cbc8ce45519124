// Launch details against real processes: the cleared stdio environment, env_vars and literal env,
// streamable HTTP with bearer tokens and headers read from the environment, tool timeouts.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  echoServer,
  HTTP_SERVER,
  NODE,
  shExecEnvironment,
  tempDir,
  text,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

describe('stdio environment', () => {
  it('clears the environment except the allow-list, env_vars and literal env (which wins)', async () => {
    const processEnv = {
      ...process.env,
      SECRET_TOKEN: 'leak-me',
      FORWARDED: 'fwd',
      OVERRIDDEN: 'from-parent',
    };
    const runtime = load(
      echoServer(
        'mcp_servers.e',
        'e',
        `env_vars = ["FORWARDED", { name = "OVERRIDDEN", source = "local" }]\nenv = { OVERRIDDEN = "literal", LITERAL = "lit" }`,
      ),
      processEnv,
    );
    const session = runtime.startSession();
    await session.ready();
    const read = async (key: string) =>
      text(await session.callTool({ server: 'e', tool: 'env', arguments: { key } }));
    expect(await read('SECRET_TOKEN')).toBe('<unset>');
    expect(await read('FORWARDED')).toBe('fwd');
    expect(await read('OVERRIDDEN')).toBe('literal');
    expect(await read('LITERAL')).toBe('lit');
    expect(await read('PATH')).toBe(process.env['PATH']);
  });

  it('forwards env_vars and env through an exec environment; remote-sourced names are read there', async () => {
    const processEnv = { ...process.env, FORWARDED: 'fwd', REMOTE_ONLY: 'local-value' };
    const runtime = load(
      shExecEnvironment('box', tempDir()) +
        echoServer(
          'environments.box.mcp_servers.e',
          'e',
          `env_vars = ["FORWARDED", { name = "REMOTE_ONLY", source = "remote" }]\nenv = { LITERAL = "a b 'c'" }`,
        ),
      processEnv,
    );
    const session = runtime.startSession();
    await session.ready();
    const read = async (key: string) =>
      text(
        await session.callTool({
          server: 'e',
          environmentId: 'box',
          tool: 'env',
          arguments: { key },
        }),
      );
    expect(await read('FORWARDED')).toBe('fwd');
    expect(await read('LITERAL')).toBe("a b 'c'");
    // The executor here is `sh` started with this process's env, so the remote side has it too;
    // what matters is that mcprt did not forward it itself (it is not in the env tail).
    expect(await read('REMOTE_ONLY')).toBe('local-value');
  });
});

describe('streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    server = spawn(NODE, [HTTP_SERVER, '--token', 'tok-123', '--name', 'web'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve) =>
      server.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    server.kill();
  });

  it('sends the bearer token from bearer_token_env_var and headers from http_headers/env_http_headers', async () => {
    const runtime = load(
      `[mcp_servers.web]\nurl = "${url}"\nbearer_token_env_var = "WEB_TOKEN"\nhttp_headers = { "X-Static" = "s1" }\nenv_http_headers = { "X-From-Env" = "HDR_VAL", "X-Missing" = "NOT_SET_VAR" }\n`,
      { ...process.env, WEB_TOKEN: 'tok-123', HDR_VAL: 'e1' },
    );
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('web')).toMatchObject({
      connectionStatus: 'connected',
      transport: 'streamable_http',
    });
    const headers = JSON.parse(
      text(await session.callTool({ server: 'web', tool: 'headers' })),
    ) as Record<string, string>;
    expect(headers['authorization']).toBe('<present>');
    expect(headers['x-static']).toBe('s1');
    expect(headers['x-from-env']).toBe('e1');
    expect(headers['x-missing']).toBeUndefined();
    expect(
      text(await session.callTool({ server: 'web', tool: 'echo', arguments: { message: 'hi' } })),
    ).toBe('web: hi');
  });

  it('fails alone when the bearer variable is missing, and never leaks the token', async () => {
    const runtime = load(
      `[mcp_servers.nobearer]\nurl = "${url}"\nbearer_token_env_var = "UNSET_TOKEN_VAR"\n[mcp_servers.wrong]\nurl = "${url}"\nbearer_token_env_var = "WRONG_TOKEN"\n`,
      { ...process.env, WRONG_TOKEN: 'not-the-token' },
    );
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('nobearer').error).toBe(
      "MCP client for `nobearer` failed to start: Environment variable UNSET_TOKEN_VAR for MCP server 'nobearer' is not set",
    );
    const wrong = session.status('wrong');
    expect(wrong.connectionStatus).toBe('authenticationRequired');
    expect(wrong.error).toBe('The wrong MCP server is not logged in. Run `mcprt mcp login wrong`.');
    expect(JSON.stringify(session.listStatus())).not.toContain('not-the-token');
  });

  it('refuses HTTP servers in an exec environment unless it says http = "direct"', async () => {
    const runtime = load(
      shExecEnvironment('box', tempDir()) +
        shExecEnvironment('direct', tempDir(), 'http = "direct"') +
        `[environments.box.mcp_servers.web]\nurl = "${url}"\nhttp_headers = { Authorization = "Bearer tok-123" }\n` +
        `[environments.direct.mcp_servers.web]\nurl = "${url}"\nhttp_headers = { Authorization = "Bearer tok-123" }\n`,
    );
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('web', 'box').error).toMatch(
      /^MCP client for `web@box` failed to start: HTTP MCP servers are not supported in exec environment `box`/,
    );
    expect(session.status('web', 'direct').connectionStatus).toBe('connected');
  });
});

describe('tool timeouts', () => {
  it('honours tool_timeout_sec instead of the SDK default request timeout', async () => {
    const runtime = load(echoServer('mcp_servers.slow', 'slow', 'tool_timeout_sec = 0.5'));
    const session = runtime.startSession();
    await session.ready();
    await expect(
      session.callTool({ server: 'slow', tool: 'sleep', arguments: { ms: 3000 } }),
    ).rejects.toThrow(/tools\/call to MCP server `slow` failed: .*timed out/i);
    // The server is still usable afterwards.
    expect(
      text(await session.callTool({ server: 'slow', tool: 'echo', arguments: { message: 'ok' } })),
    ).toBe('slow: ok');
  });
});
