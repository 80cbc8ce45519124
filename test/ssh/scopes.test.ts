// Same-named servers side by side over ssh: two ssh environments against one real sshd (each
// listener gives its sessions their own HOME) plus a thread-wide server, all named `shared`.
// Routing follows the brief's table; env_vars sourced `remote` are read on the remote side.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';
import {
  Runtime,
  EnvironmentNotSelectedError,
  UnknownEnvironmentError,
  UnknownServerError,
} from '@mcprt/runtime';

import type { SshEnvironment } from '../../packages/runtime/src/environments/ssh.js';
import { echoServer, tempDir, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';

const load = useRuntimes();
let sshd: Sshd;
const homeA = tempDir('mcprt-home-a-');
const homeB = tempDir('mcprt-home-b-');
const cwdA = tempDir('mcprt-cwd-a-');
const cwdB = tempDir('mcprt-cwd-b-');

beforeAll(async () => {
  sshd = await Sshd.start([
    { home: homeA, env: { MCPRT_TEST_REMOTE_ONLY: 'remote-a' } },
    { home: homeB, env: { MCPRT_TEST_REMOTE_ONLY: 'remote-b' } },
  ]);
});
afterAll(async () => {
  await sshd.close();
});

interface Whoami {
  name: string;
  pid: number;
  cwd: string;
}

const call = async (
  session: Session,
  server: string,
  tool: string,
  args: object,
  env?: string | null,
) =>
  text(
    await session.callTool({
      server,
      tool,
      arguments: args as Record<string, unknown>,
      ...(env !== undefined ? { environmentId: env } : {}),
    }),
  );
const whoami = async (session: Session, server: string, env?: string | null) =>
  JSON.parse(await call(session, server, 'whoami', {}, env)) as Whoami;

describe('ssh environments side by side', () => {
  it('runs `shared` thread-wide and in two ssh environments: three live, listed, routed registrations', async () => {
    const logins = sshd.acceptedLogins();
    const runtime = load(
      echoServer('mcp_servers.shared', 'shared-threadwide') +
        sshd.environmentToml('alpha', 0, { cwd: cwdA }) +
        echoServer(
          'environments.alpha.mcp_servers.shared',
          'shared-alpha',
          'env_vars = [{ name = "MCPRT_TEST_REMOTE_ONLY", source = "remote" }, "FORWARD_ME"]',
        ) +
        sshd.environmentToml('beta', 1, { cwd: cwdB }) +
        echoServer('environments.beta.mcp_servers.shared', 'shared-beta') +
        sshd.environmentToml('gamma', 0) +
        echoServer('environments.gamma.mcp_servers.shared', 'shared-gamma'),
      { ...process.env, MCPRT_TEST_REMOTE_ONLY: 'local-value', FORWARD_ME: 'forwarded' },
    );
    const session = runtime.startSession({
      threadId: 'thread-ssh',
      cwd: tempDir(),
      environments: [
        { environmentId: 'alpha', cwd: '/' },
        { environmentId: 'beta', cwd: '/' },
      ],
    });
    const summary = await session.ready();
    expect(summary.failed).toEqual([]);
    expect(summary.ready).toEqual([
      { environmentId: null, name: 'shared' },
      { environmentId: 'alpha', name: 'shared' },
      { environmentId: 'beta', name: 'shared' },
    ]);
    expect(
      session
        .listStatus()
        .map((s) => [s.name, s.environmentId, s.executionEnvironmentId, s.connectionStatus]),
    ).toEqual([
      ['shared', null, 'local', 'connected'],
      ['shared', 'alpha', 'alpha', 'connected'],
      ['shared', 'beta', 'beta', 'connected'],
    ]);

    const local = await whoami(session, 'shared', null);
    const alpha = await whoami(session, 'shared', 'alpha');
    const beta = await whoami(session, 'shared', 'beta');
    expect([local.name, alpha.name, beta.name]).toEqual([
      'shared-threadwide',
      'shared-alpha',
      'shared-beta',
    ]);
    // The environment's cwd wins over the thread's cwd for it; each has its own remote HOME.
    expect(alpha.cwd).toBe(cwdA);
    expect(beta.cwd).toBe(cwdB);
    expect(await call(session, 'shared', 'env', { key: 'HOME' }, 'alpha')).toBe(homeA);
    expect(await call(session, 'shared', 'env', { key: 'HOME' }, 'beta')).toBe(homeB);
    // `source = "remote"`: the remote side's value, not this process's; others are forwarded.
    expect(await call(session, 'shared', 'env', { key: 'MCPRT_TEST_REMOTE_ONLY' }, 'alpha')).toBe(
      'remote-a',
    );
    expect(await call(session, 'shared', 'env', { key: 'FORWARD_ME' }, 'alpha')).toBe('forwarded');
    // beta forwards nothing: the remote environment has no FORWARD_ME.
    expect(await call(session, 'shared', 'env', { key: 'FORWARD_ME' }, 'beta')).toBe('<unset>');

    // Omitted environmentId: legacy rule, the thread-wide registration.
    expect((await whoami(session, 'shared')).name).toBe('shared-threadwide');
    // Unknown and unselected environments: the brief's errors.
    await expect(whoami(session, 'shared', 'nowhere')).rejects.toThrow(UnknownEnvironmentError);
    await expect(whoami(session, 'shared', 'nowhere')).rejects.toThrow(
      'unknown environment id `nowhere`',
    );
    await expect(whoami(session, 'shared', 'gamma')).rejects.toThrow(EnvironmentNotSelectedError);
    await expect(whoami(session, 'shared', 'gamma')).rejects.toThrow(
      'environment `gamma` is not selected by thread thread-ssh',
    );
    await expect(whoami(session, 'other', 'alpha')).rejects.toThrow(UnknownServerError);
    // One control connection per environment used (gamma was never selected, so never used).
    expect(sshd.acceptedLogins() - logins).toBe(2);
    const health = (id: string) => runtime.environments.get(id)?.health?.().state;
    expect([health('alpha'), health('beta'), health('gamma')]).toEqual([
      'ready',
      'ready',
      'disconnected',
    ]);
  });

  it('without a thread-wide `shared`, an omitted environmentId takes the first ssh environment in the thread order', async () => {
    const runtime = load(
      sshd.environmentToml('alpha', 0, { cwd: cwdA }) +
        echoServer('environments.alpha.mcp_servers.shared', 'shared-alpha') +
        sshd.environmentToml('beta', 1, { cwd: cwdB }) +
        echoServer('environments.beta.mcp_servers.shared', 'shared-beta'),
    );
    const session = runtime.startSession({
      environments: [
        { environmentId: 'beta', cwd: '/' },
        { environmentId: 'alpha', cwd: '/' },
      ],
    });
    await session.ready();
    expect((await whoami(session, 'shared')).name).toBe('shared-beta');
    await session.close();
    const config = runtime.startSession();
    await config.ready();
    expect((await whoami(config, 'shared')).name).toBe('shared-alpha');
  });

  it('keeps one connection across reloads; a changed environment table reconnects and restarts its servers', async () => {
    const home = tempDir();
    const write = (alphaCwd: string) =>
      writeFileSync(
        join(home, 'config.toml'),
        sshd.environmentToml('alpha', 0, { cwd: alphaCwd }) +
          echoServer('environments.alpha.mcp_servers.a', 'a') +
          sshd.environmentToml('beta', 1, { cwd: cwdB }) +
          echoServer('environments.beta.mcp_servers.b', 'b'),
      );
    write(cwdA);
    const runtime = Runtime.load({ home });
    try {
      const session = runtime.startSession();
      await session.ready();
      const alphaBefore = runtime.environments.get('alpha')!;
      const beta = runtime.environments.get('beta')!;
      const pids = async () => [
        (await whoami(session, 'a', 'alpha')).pid,
        (await whoami(session, 'b', 'beta')).pid,
      ];
      const [aPid, bPid] = await pids();
      const logins = sshd.acceptedLogins();

      await runtime.reload(); // nothing changed
      await session.ready();
      expect(await pids()).toEqual([aPid, bPid]);
      expect(sshd.acceptedLogins()).toBe(logins);

      write(cwdB); // alpha's table changed: new environment object, new connection
      await runtime.reload();
      await session.ready();
      expect(runtime.environments.get('beta')).toBe(beta);
      expect(runtime.environments.get('alpha')).not.toBe(alphaBefore);
      const [aAfter, bAfter] = await pids();
      expect(aAfter).not.toBe(aPid);
      expect(bAfter).toBe(bPid);
      expect((await whoami(session, 'a', 'alpha')).cwd).toBe(cwdB);
      expect(sshd.acceptedLogins() - logins).toBe(1);
      // The replaced environment was closed with the reload.
      await expect((alphaBefore as SshEnvironment).connect()).rejects.toThrow(
        /ssh environment `alpha` .* is closed/,
      );
    } finally {
      await runtime.close();
    }
  });

  it('fails a relative or missing cwd alone, naming the server and the environment', async () => {
    const runtime = load(
      sshd.environmentToml('alpha', 0) +
        echoServer('environments.alpha.mcp_servers.rel', 'rel', 'cwd = "relative/dir"') +
        echoServer('environments.alpha.mcp_servers.ok', 'ok'),
    );
    const session = runtime.startSession({ environments: [{ environmentId: 'alpha', cwd: cwdA }] });
    const summary = await session.ready();
    expect(summary.ready).toEqual([{ environmentId: 'alpha', name: 'ok' }]);
    expect(summary.failed).toEqual([
      {
        scope: { environmentId: 'alpha', name: 'rel' },
        error:
          'MCP client for `rel@alpha` failed to start: cwd `relative/dir` of MCP server `rel@alpha` must be an absolute path in environment `alpha`',
      },
    ]);
    // The thread's cwd for the environment applies when neither server nor environment sets one.
    expect((await whoami(session, 'ok', 'alpha')).cwd).toBe(cwdA);
  });
});
