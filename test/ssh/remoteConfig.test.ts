// Registrations contributed by the remote host's own `~/.mcprt/config.toml`, read through the ssh
// environment at session start and on reload: they join the environment's scope, this machine's
// config wins on a clash, a broken remote file fails only that environment's remote
// registrations (naming it), and a slow environment does not hold the others back.
import { writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { StartupStatusEvent } from '@mcprt/runtime';

import { echoServer, tempDir, text, waitFor } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';

const load = useRuntimes();
let sshd: Sshd;
const homeA = tempDir('mcprt-home-a-');
const homeB = tempDir('mcprt-home-b-');

function writeRemoteConfig(home: string, toml: string): void {
  mkdirSync(join(home, '.mcprt'), { recursive: true });
  writeFileSync(join(home, '.mcprt', 'config.toml'), toml);
}

beforeAll(async () => {
  sshd = await Sshd.start([{ home: homeA }, { home: homeB }]);
});
afterAll(async () => {
  await sshd.close();
});

describe("the remote host's own config", () => {
  it('adds its [mcp_servers] to the environment, local config first; a broken remote file fails only its environment', async () => {
    writeRemoteConfig(
      homeA,
      echoServer('mcp_servers.remote_only', 'remote-only-a') +
        echoServer('mcp_servers.shared', 'remote-shared-a') +
        '[mcp_servers.broken]\nargs = ["no command"]\n' +
        '[environments.ignored]\ntype = "exec"\nprogram = "sh"\n',
    );
    writeRemoteConfig(homeB, '[mcp_servers.half\ncommand = "x"\n');
    const runtime = load(
      sshd.environmentToml('alpha', 0, { cwd: '/' }) +
        echoServer('environments.alpha.mcp_servers.shared', 'local-shared-alpha') +
        sshd.environmentToml('beta', 1, { cwd: '/' }) +
        echoServer('environments.beta.mcp_servers.own', 'beta-own'),
    );
    const session = runtime.startSession({ threadId: 'remote-thread' });
    const summary = await session.ready();
    expect(summary.ready).toEqual([
      { environmentId: 'alpha', name: 'shared' },
      { environmentId: 'alpha', name: 'remote_only' },
      { environmentId: 'beta', name: 'own' },
    ]);
    expect(summary.failed).toEqual([
      {
        scope: { environmentId: 'alpha', name: 'broken' },
        error: expect.stringMatching(
          new RegExp(
            `^ssh://.*@127\\.0\\.0\\.1:${sshd.ports[0]}${homeA}/\\.mcprt/config\\.toml:\\d+:1: mcp_servers\\.broken: invalid transport$`,
          ),
        ) as unknown as string,
      },
    ]);
    const call = async (server: string, environmentId: string) =>
      text(
        await session.callTool({
          server,
          environmentId,
          tool: 'echo',
          arguments: { message: 'm' },
        }),
      );
    expect(await call('remote_only', 'alpha')).toBe('remote-only-a: m');
    // This machine's [environments.alpha.mcp_servers.shared] wins over the remote [mcp_servers.shared].
    expect(await call('shared', 'alpha')).toBe('local-shared-alpha: m');
    expect(await call('own', 'beta')).toBe('beta-own: m');
    // beta's remote file is bad TOML: its remote registrations fail, with the environment named.
    expect(session.registrationsError('beta')).toMatch(
      new RegExp(
        `^remote config of environment \`beta\` \\(.*@127\\.0\\.0\\.1:${sshd.ports[1]}\\) is invalid: ssh://.*${homeB}/\\.mcprt/config\\.toml:1:\\d+: invalid TOML`,
      ),
    );
    expect(session.registrationsError('alpha')).toBeNull();
    // Legacy routing sees remote registrations like any other.
    expect(
      text(
        await session.callTool({
          server: 'remote_only',
          tool: 'echo',
          arguments: { message: 'x' },
        }),
      ),
    ).toBe('remote-only-a: x');
  });

  it('re-reads the remote config on reload: added servers start, removed ones stop, unchanged ones keep their process', async () => {
    writeRemoteConfig(
      homeA,
      echoServer('mcp_servers.keep', 'keep') + echoServer('mcp_servers.drop', 'drop'),
    );
    writeRemoteConfig(homeB, '');
    const runtime = load(sshd.environmentToml('alpha', 0, { cwd: '/' }));
    const session = runtime.startSession();
    await session.ready();
    const pidOf = async (server: string) =>
      (
        JSON.parse(
          text(await session.callTool({ server, environmentId: 'alpha', tool: 'whoami' })),
        ) as { pid: number }
      ).pid;
    const keepPid = await pidOf('keep');
    const events: StartupStatusEvent[] = [];
    session.on('startupStatus', (e) => events.push(e));

    writeRemoteConfig(
      homeA,
      echoServer('mcp_servers.keep', 'keep') + echoServer('mcp_servers.added', 'added'),
    );
    await runtime.reload();
    await session.ready();
    expect(
      session.listStatus().map((s) => `${s.name}@${s.environmentId}:${s.connectionStatus}`),
    ).toEqual(['keep@alpha:connected', 'added@alpha:connected']);
    expect(await pidOf('keep')).toBe(keepPid);
    expect(events).toContainEqual(
      expect.objectContaining({
        name: 'drop',
        environmentId: 'alpha',
        status: 'cancelled',
        error: 'MCP server `drop@alpha` was removed from the configuration',
      }),
    );
    await expect(
      session.callTool({ server: 'drop', environmentId: 'alpha', tool: 'whoami' }),
    ).rejects.toThrow("unknown MCP server 'drop (environment alpha)'");
  });

  it('does not hold other environments back while one is still connecting', async () => {
    writeRemoteConfig(homeA, echoServer('mcp_servers.quick', 'quick'));
    // A TCP port that accepts and never speaks: ssh waits there for the server's banner.
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentPort = (silent.address() as { port: number }).port;
    try {
      const runtime = load(
        sshd.environmentToml('alpha', 0, { cwd: '/' }) +
          `[environments.slow]\ntype = "ssh"\nhost = "127.0.0.1"\nport = ${silentPort}\nssh_options = ["-F", "/dev/null", "-o", "ConnectTimeout=30"]\n`,
      );
      const session = runtime.startSession();
      const ready = await waitFor(
        () =>
          session
            .listStatus()
            .find((s) => s.name === 'quick' && s.connectionStatus === 'connected'),
        15_000,
        'quick@alpha to connect',
      );
      expect(ready.environmentId).toBe('alpha');
      expect(runtime.environments.get('slow')?.health?.().state).toBe('connecting');
      expect(session.registrationsError('slow')).toBeNull();
      await session.close();
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});
