// Registration scope end to end: same-named servers in several environments are all live, listed
// and callable; routing follows the brief's table exactly (legacy rule, typed errors, texts).
import { describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';
import {
  EnvironmentNotSelectedError,
  UnknownEnvironmentError,
  UnknownServerError,
} from '@mcprt/runtime';

import { echoServer, shExecEnvironment, tempDir, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

const whoami = async (session: Session, server: string, environmentId?: string | null) =>
  JSON.parse(
    text(
      await session.callTool({
        server,
        tool: 'whoami',
        ...(environmentId !== undefined ? { environmentId } : {}),
      }),
    ),
  ) as { name: string; pid: number; cwd: string };

describe('same-named servers in several environments', () => {
  it('keeps thread-wide `shared` and `shared` in an exec environment apart, both listed and callable', async () => {
    const boxCwd = tempDir();
    const runtime = load(
      echoServer('mcp_servers.shared', 'shared-threadwide') +
        shExecEnvironment('box', boxCwd) +
        echoServer('environments.box.mcp_servers.shared', 'shared-box'),
    );
    const session = runtime.startSession({ cwd: tempDir() });
    const summary = await session.ready();
    expect(summary.ready).toEqual([
      { environmentId: null, name: 'shared' },
      { environmentId: 'box', name: 'shared' },
    ]);

    const all = session.listStatus();
    expect(
      all.map((s) => [s.name, s.environmentId, s.executionEnvironmentId, s.connectionStatus]),
    ).toEqual([
      ['shared', null, 'local', 'connected'],
      ['shared', 'box', 'box', 'connected'],
    ]);
    expect(session.listStatus({ serverName: 'shared' })).toHaveLength(2);
    expect(session.listStatus({ environmentId: 'box' }).map((s) => s.environmentId)).toEqual([
      'box',
    ]);

    const local = await whoami(session, 'shared', null);
    const box = await whoami(session, 'shared', 'box');
    expect(local.name).toBe('shared-threadwide');
    expect(box.name).toBe('shared-box');
    expect(box.pid).not.toBe(local.pid);
    // The exec environment applied its cwd on the executor side.
    expect(box.cwd).toBe(boxCwd);
    // Omitted environmentId: legacy name-only routing picks the thread-wide registration.
    expect((await whoami(session, 'shared')).name).toBe('shared-threadwide');

    // Model-visible names never collide: the environment is part of the namespace.
    const names = session
      .tools()
      .filter((t) => t.tool.name === 'echo')
      .map((t) => t.modelName);
    expect(names.sort()).toEqual(['mcp__box__shared__echo', 'mcp__shared__echo']);
    expect(text(await session.callModelTool('mcp__box__shared__echo', { message: 'x' }))).toBe(
      'shared-box: x',
    );
  });

  it('runs `shared` in two exec environments; omitted environmentId takes the first in the thread order', async () => {
    const runtime = load(
      shExecEnvironment('alpha', tempDir()) +
        shExecEnvironment('beta', tempDir()) +
        echoServer('environments.alpha.mcp_servers.shared', 'in-alpha') +
        echoServer('environments.beta.mcp_servers.shared', 'in-beta'),
    );
    const session = runtime.startSession();
    await session.ready();
    expect(
      session.listStatus().map((s) => `${s.name}@${s.environmentId}:${s.connectionStatus}`),
    ).toEqual(['shared@alpha:connected', 'shared@beta:connected']);
    expect((await whoami(session, 'shared', 'alpha')).name).toBe('in-alpha');
    expect((await whoami(session, 'shared', 'beta')).name).toBe('in-beta');
    expect((await whoami(session, 'shared')).name).toBe('in-alpha');
    await session.close();

    // The thread's environment order decides, not the config order.
    const reversed = runtime.startSession({
      environments: [
        { environmentId: 'beta', cwd: tempDir() },
        { environmentId: 'alpha', cwd: tempDir() },
      ],
    });
    await reversed.ready();
    expect((await whoami(reversed, 'shared')).name).toBe('in-beta');
  });

  it('answers bad selectors with the typed errors and the brief texts', async () => {
    const runtime = load(
      shExecEnvironment('alpha', tempDir()) +
        shExecEnvironment('beta', tempDir()) +
        echoServer('environments.alpha.mcp_servers.shared', 'in-alpha') +
        echoServer('mcp_servers.solo', 'solo'),
    );
    const session = runtime.startSession({
      threadId: 'thread-1',
      environments: [{ environmentId: 'alpha', cwd: null }],
    });
    await session.ready();
    const call = (server: string, environmentId?: string) =>
      session.callTool({
        server,
        tool: 'echo',
        arguments: { message: 'm' },
        ...(environmentId ? { environmentId } : {}),
      });

    await expect(call('shared', 'nowhere')).rejects.toThrow(UnknownEnvironmentError);
    await expect(call('shared', 'nowhere')).rejects.toThrow('unknown environment id `nowhere`');
    await expect(call('shared', 'beta')).rejects.toThrow(EnvironmentNotSelectedError);
    await expect(call('shared', 'beta')).rejects.toThrow(
      'environment `beta` is not selected by thread thread-1',
    );
    await expect(call('solo', 'alpha')).rejects.toThrow(UnknownServerError);
    await expect(call('solo', 'alpha')).rejects.toThrow(
      "unknown MCP server 'solo (environment alpha)'",
    );
    await expect(call('missing')).rejects.toThrow("unknown MCP server 'missing'");
    // `local` is always a configured, selected environment; it contributes no registrations.
    await expect(call('solo', 'local')).rejects.toThrow(
      "unknown MCP server 'solo (environment local)'",
    );
    expect(() => session.status('shared', 'nowhere')).toThrow(UnknownEnvironmentError);
    // beta was not selected, so its registrations are not part of this thread.
    expect(session.listStatus().map((s) => `${s.name}@${s.environmentId}`)).toEqual([
      'solo@null',
      'shared@alpha',
    ]);
    expect(text(await call('shared', 'alpha'))).toBe('in-alpha: m');
  });

  it('fails a server that references an unknown environment alone, with Codex text', async () => {
    const runtime = load(
      echoServer('mcp_servers.lost', 'lost', 'environment_id = "mars"') +
        echoServer('mcp_servers.fine', 'fine'),
    );
    const session = runtime.startSession();
    const summary = await session.ready();
    expect(summary.ready.map((s) => s.name)).toEqual(['fine']);
    expect(session.status('lost')).toMatchObject({
      startupStatus: 'failed',
      failureKind: 'config',
      error:
        'MCP client for `lost` failed to start: MCP server `lost` references unknown environment id `mars`',
    });
  });

  it('runs a thread-wide server in an exec environment via environment_id (scope stays thread-wide)', async () => {
    const cwd = tempDir();
    const runtime = load(
      shExecEnvironment('box', cwd) +
        echoServer('mcp_servers.remote', 'remote', 'environment_id = "box"'),
    );
    const session = runtime.startSession();
    await session.ready();
    const status = session.status('remote');
    expect(status.environmentId).toBeNull();
    expect(status.executionEnvironmentId).toBe('box');
    expect((await whoami(session, 'remote')).cwd).toBe(cwd);
    await expect(
      session.callTool({ server: 'remote', tool: 'whoami', environmentId: 'box' }),
    ).rejects.toThrow("unknown MCP server 'remote (environment box)'");
  });

  it('rejects a relative cwd for a stdio server in a named environment, alone', async () => {
    const runtime = load(
      shExecEnvironment('box', tempDir()) +
        echoServer('environments.box.mcp_servers.rel', 'rel', 'cwd = "sub/dir"') +
        echoServer('environments.box.mcp_servers.ok', 'ok'),
    );
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('rel', 'box').error).toBe(
      'MCP client for `rel@box` failed to start: cwd `sub/dir` of MCP server `rel@box` must be an absolute path in environment `box`',
    );
    expect(session.status('ok', 'box').connectionStatus).toBe('connected');
  });
});
