// SDK end to end against the real app-server process: spawn over stdio and connect over
// WebSocket (token required), start a thread with two environments, receive startup
// notifications with environmentId, list, call by environment, typed errors; a thread under a
// view, its tool search and its cost (mcprt extensions).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ErrorCode, McprtClient, ProtocolError } from '@mcprt/sdk';

import {
  echoServer,
  makeHome,
  NODE,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';

const HOME = makeHome(
  echoServer('mcp_servers.solo', 'solo') +
    shExecEnvironment('alpha', tempDir()) +
    shExecEnvironment('beta', tempDir()) +
    echoServer('environments.alpha.mcp_servers.shared', 'shared-alpha') +
    echoServer('environments.beta.mcp_servers.shared', 'shared-beta') +
    '[views.beta_only]\ninclude = ["beta/*/*"]\ntool_prefix = "always"\n',
);

async function exercise(client: McprtClient) {
  const updates: { name: string; environmentId: string | null; status: string }[] = [];
  client.on('mcpServer/startupStatus/updated', (p) => void updates.push(p));
  const { thread } = await client.request('thread/start', {
    environments: [
      { environmentId: 'alpha', cwd: tempDir() },
      { environmentId: 'beta', cwd: tempDir() },
    ],
  });
  for await (const n of client.notifications('mcpServer/startupStatus/updated')) {
    if (updates.filter((u) => u.status === 'ready').length === 3) break;
    void n;
  }
  expect(
    updates
      .filter((u) => u.status === 'ready')
      .map((u) => `${u.name}@${u.environmentId}`)
      .sort(),
  ).toEqual(['shared@alpha', 'shared@beta', 'solo@null']);

  const list = await client.request('mcpServerStatus/list', {
    threadId: thread.id,
    serverName: 'shared',
  });
  expect(list.data.map((s) => s.environmentId)).toEqual(['alpha', 'beta']);

  for (const env of ['alpha', 'beta']) {
    const result = await client.request('mcpServer/tool/call', {
      threadId: thread.id,
      server: 'shared',
      environmentId: env,
      tool: 'echo',
      arguments: { message: 'hi' },
    });
    expect(result.content).toEqual([{ type: 'text', text: `shared-${env}: hi` }]);
  }

  const unknownEnv = await client
    .request('mcpServer/tool/call', {
      threadId: thread.id,
      server: 'shared',
      environmentId: 'mars',
      tool: 'echo',
    })
    .catch((e: unknown) => e);
  expect(unknownEnv).toBeInstanceOf(ProtocolError);
  expect(unknownEnv).toMatchObject({
    code: ErrorCode.InvalidRequest,
    message: 'unknown environment id `mars`',
  });

  const unknownServer = await client
    .request('mcpServer/tool/call', { threadId: thread.id, server: 'ghost', tool: 'echo' })
    .catch((e: unknown) => e);
  expect(unknownServer).toBeInstanceOf(ProtocolError);
  expect(unknownServer).toMatchObject({
    code: ErrorCode.InternalError,
    message: "unknown MCP server 'ghost'",
  });

  const envs = await client.request('environment/list', { threadId: thread.id });
  expect(envs.data.map((e) => `${e.environmentId}:${e.kind}:${e.status}`)).toEqual([
    'local:local:ready',
    'alpha:exec:ready',
    'beta:exec:ready',
  ]);
}

describe('SDK against the real app-server', () => {
  it('over stdio (spawned app-server)', async () => {
    const client = await McprtClient.spawn({
      args: [CLI, '--home', HOME, 'app-server'],
      cwd: REPO_ROOT,
    });
    try {
      expect(client.initializeResult).toMatchObject({ codexHome: HOME });
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  describe('over WebSocket', () => {
    let server: ChildProcess | undefined;
    let serverStderr = '';
    afterAll(() => {
      server?.kill('SIGTERM');
    });

    async function startWs(tokenFile: string): Promise<string> {
      server = spawn(
        NODE,
        [
          CLI,
          '--home',
          HOME,
          'app-server',
          '--listen',
          'ws://127.0.0.1:0',
          '--ws-token-file',
          tokenFile,
        ],
        {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      return new Promise((resolve, reject) => {
        let err = '';
        server!.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          serverStderr += d.toString();
          const m = /listening on (ws:\/\/\S+)/.exec(err);
          if (m) resolve(m[1]!);
        });
        server!.once('exit', (code) => reject(new Error(`app-server exited ${code}: ${err}`)));
      });
    }

    it('requires the bearer token and never prints it', async () => {
      const tokenFile = join(tempDir(), 'token');
      const token = 'tok-' + 'x'.repeat(40);
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
      const url = await startWs(tokenFile);
      expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);

      await expect(McprtClient.connect(url)).rejects.toThrow(/401/);
      await expect(McprtClient.connect(url, { token: 'wrong-token-value-000000' })).rejects.toThrow(
        /401/,
      );

      const client = await McprtClient.connect(url, { token });
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
      expect(serverStderr).toContain(`bearer token in ${tokenFile}`);
      expect(serverStderr).not.toContain(token);
    });
  });

  it('over stdio: a thread under a view, its tool search and its cost', async () => {
    const client = await McprtClient.spawn({
      args: [CLI, '--home', HOME, 'app-server'],
      cwd: REPO_ROOT,
    });
    try {
      const { thread } = await client.request('thread/start', { view: 'beta_only' });
      expect(thread.view).toBe('beta_only');
      const { tools } = await client.request('mcpServer/tool/search', {
        threadId: thread.id,
        query: 'echo the message back',
        limit: 3,
      });
      expect(tools[0]).toMatchObject({
        name: 'beta__shared__echo',
        server: 'shared',
        environmentId: 'beta',
        description: 'Echo the message back',
      });
      expect(tools.every((t) => t.environmentId === 'beta')).toBe(true);
      const cost = await client.request('thread/toolView/get', { threadId: thread.id });
      expect(cost).toMatchObject({ view: 'beta_only', searching: false, overThreshold: false });
      expect(cost.servers.map((s) => `${s.server}@${s.environmentId}`)).toEqual(['shared@beta']);
      expect(cost.allTokens).toBe(cost.servers[0]!.tokens);
      const unknown = await client
        .request('mcpServer/tool/search', { threadId: thread.id, query: 'x', view: 'gamma' })
        .catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(ProtocolError);
      expect(unknown).toMatchObject({
        code: ErrorCode.InvalidRequest,
        message: 'unknown view `gamma` (defined: `beta_only`)',
      });
    } finally {
      await client.close();
    }
  });

  it('refuses a non-loopback listen address and a missing token file', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(NODE, [CLI, '--home', HOME, 'app-server', ...args], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
    const tokenFile = join(tempDir(), 'token');
    writeFileSync(tokenFile, 'a-long-enough-token-value\n', { mode: 0o600 });
    const remote = await run(['--listen', 'ws://0.0.0.0:0', '--ws-token-file', tokenFile]);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('refusing to listen on non-loopback host 0.0.0.0');
    const missing = await run([
      '--listen',
      'ws://127.0.0.1:0',
      '--ws-token-file',
      join(tempDir(), 'nope'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read --ws-token-file/);
  });
});
