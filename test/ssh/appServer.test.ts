// ssh environments through the app-server (the built CLI as a real process): `environment/list`
// reports live health (`disconnected` before first use, `ready`, `disconnected` with the reason
// after the connection is lost) and why the remote host's own config could not be read; the
// lost connection reaches the client as a startup status naming the environment.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, makeHome, tempDir } from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { Sshd } from '../helpers/sshd.js';

let sshd: Sshd;
const remoteHome = tempDir('mcprt-remote-home-');

beforeAll(async () => {
  sshd = await Sshd.start([{ home: remoteHome }]);
  mkdirSync(join(remoteHome, '.mcprt'));
  writeFileSync(join(remoteHome, '.mcprt', 'config.toml'), 'mcp_servers = "not a table"\n');
});
afterAll(async () => {
  await sshd.close();
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

interface EnvInfo {
  environmentId: string;
  kind: string;
  status: string;
  error: string | null;
  cwd: string | null;
  remoteConfigError: string | null;
}

describe('ssh environments in the app-server', () => {
  it('lists live health and remote config errors, and reports a lost connection naming the environment', async () => {
    const home = makeHome(
      sshd.environmentToml('alpha', 0, { cwd: '/' }) +
        echoServer('environments.alpha.mcp_servers.shared', 'shared-alpha') +
        `[environments.down]\ntype = "ssh"\nhost = "127.0.0.1"\nport = ${await closedPort()}\nssh_options = ["-F", "/dev/null"]\n`,
    );
    const app = RawAppServer.start(home);
    try {
      await app.initialize();
      const list = async (params?: unknown) =>
        (await app.call<{ data: EnvInfo[] }>('environment/list', params)).data;
      expect((await list()).map((e) => [e.environmentId, e.kind, e.status, e.error])).toEqual([
        ['local', 'local', 'ready', null],
        ['alpha', 'ssh', 'disconnected', null],
        ['down', 'ssh', 'disconnected', null],
      ]);

      const { thread } = await app.call<{ thread: { id: string } }>('thread/start', {
        cwd: tempDir(),
        environments: [
          { environmentId: 'alpha', cwd: '/' },
          { environmentId: 'down', cwd: '/' },
        ],
      });
      const status = (name: string, env: string, value: string) => (m: Message) =>
        m.method === 'mcpServer/startupStatus/updated' &&
        (m.params as { name: string; environmentId: string; status: string }).name === name &&
        (m.params as { environmentId: string }).environmentId === env &&
        (m.params as { status: string }).status === value;
      await app.waitFor(status('shared', 'alpha', 'ready'));

      let envs: EnvInfo[] = [];
      for (let i = 0; i < 100; i += 1) {
        envs = await list({ threadId: thread.id });
        if (envs.find((e) => e.environmentId === 'down')?.error) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const alpha = envs.find((e) => e.environmentId === 'alpha')!;
      const down = envs.find((e) => e.environmentId === 'down')!;
      expect(alpha).toMatchObject({ kind: 'ssh', status: 'ready', error: null, cwd: '/' });
      expect(alpha.remoteConfigError).toMatch(
        /^remote config of environment `alpha` \(.*\) is invalid: ssh:\/\/.*\/\.mcprt\/config\.toml:1:1: mcp_servers: expected a table, found string$/,
      );
      expect(down.status).toBe('disconnected');
      expect(down.error).toMatch(
        /^ssh environment `down` \(127\.0\.0\.1:\d+\) could not connect: .*Connection refused/,
      );
      expect(down.remoteConfigError).toMatch(/^ssh environment `down` .* could not connect/);

      await sshd.stop();
      const failed = await app.waitFor(status('shared', 'alpha', 'failed'), 10_000);
      expect((failed.params as { error: string }).error).toMatch(
        /^MCP server `shared@alpha` stopped: ssh connection to environment `alpha` \(.*\) was lost: /,
      );
      const after = (await list({ threadId: thread.id })).find((e) => e.environmentId === 'alpha')!;
      expect(after.status).toBe('disconnected');
      expect(after.error).toMatch(/^ssh connection to environment `alpha` .* was lost: /);
    } finally {
      await app.close();
      await sshd.start();
    }
  });
});
