// Reload: unchanged registrations keep their process, changed ones restart, removed ones stop
// with a status update, new ones start; a config error on reload fails only that server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Runtime, StartupStatusEvent } from '@mcprt/runtime';
import { Runtime as RuntimeClass } from '@mcprt/runtime';

import { echoServer, isAlive, makeHome, waitFor } from '../helpers/fixtures.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
});

describe('reload', () => {
  it('keeps unchanged processes, restarts changed ones, stops removed ones and starts new ones', async () => {
    const home = makeHome(
      echoServer('mcp_servers.keep', 'keep') +
        echoServer('mcp_servers.change', 'v1') +
        echoServer('mcp_servers.drop', 'drop'),
    );
    const runtime = RuntimeClass.load({ home });
    runtimes.push(runtime);
    const session = runtime.startSession();
    await session.ready();
    const pid = (name: string) => session.status(name).pid!;
    const before = { keep: pid('keep'), change: pid('change'), drop: pid('drop') };
    const events: StartupStatusEvent[] = [];
    session.on('startupStatus', (e) => events.push(e));

    writeFileSync(
      join(home, 'config.toml'),
      echoServer('mcp_servers.keep', 'keep', 'disabled_tools = ["sleep"]') +
        echoServer('mcp_servers.change', 'v2') +
        echoServer('mcp_servers.added', 'added'),
    );
    await runtime.reload();
    await session.ready();

    expect(pid('keep')).toBe(before.keep);
    expect(session.status('keep').tools.map((t) => t.name)).not.toContain('sleep');
    expect(pid('change')).not.toBe(before.change);
    expect(isAlive(before.change)).toBe(false);
    await waitFor(() => !isAlive(before.drop), 5000, 'dropped server to exit');
    expect(() => session.status('drop')).toThrow("unknown MCP server 'drop'");
    expect(session.status('added').connectionStatus).toBe('connected');
    expect(events.find((e) => e.name === 'drop')).toMatchObject({
      status: 'cancelled',
      failureKind: 'removed',
      error: 'MCP server `drop` was removed from the configuration',
    });
    expect(events.filter((e) => e.name === 'keep')).toEqual([]);
    expect(events.filter((e) => e.name === 'change').map((e) => e.status)).toEqual([
      'starting',
      'ready',
    ]);
  });

  it('restarts a server when a referenced environment variable value changes', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e', 'env_vars = ["MY_VAR"]'));
    const processEnv = { ...process.env, MY_VAR: 'one' };
    const runtime = RuntimeClass.load({ home, processEnv });
    runtimes.push(runtime);
    const session = runtime.startSession();
    await session.ready();
    const first = session.status('e').pid;
    await runtime.reload();
    expect(session.status('e').pid).toBe(first);
    processEnv.MY_VAR = 'two';
    await runtime.reload();
    await session.ready();
    expect(session.status('e').pid).not.toBe(first);
  });
});
