// Concurrent startup against real stdio processes: bounded by startup_timeout_sec, failures stay
// per-server, required servers fail the session with Codex's aggregated message.
import { describe, expect, it } from 'vitest';

import type { StartupStatusEvent } from '@mcprt/runtime';
import { RequiredServersError } from '@mcprt/runtime';

import { echoServer, isAlive, NODE, q, SILENT_SERVER, arr, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

describe('concurrent startup', () => {
  it('starts 20 servers concurrently; a silent one fails at its own timeout without delaying the others', async () => {
    let toml = '';
    for (let i = 0; i < 20; i++) toml += echoServer(`mcp_servers.s${i}`, `s${i}`);
    toml += `[mcp_servers.silent]\ncommand = ${q(NODE)}\nargs = ${arr([SILENT_SERVER])}\nstartup_timeout_sec = 8\n`;
    const runtime = load(toml);
    const t0 = Date.now();
    const readyAt = new Map<string, number>();
    const failed: StartupStatusEvent[] = [];
    const session = runtime.startSession();
    session.on('startupStatus', (e) => {
      if (e.status === 'ready') readyAt.set(e.name, Date.now() - t0);
      if (e.status === 'failed') failed.push(e);
    });
    const silentFailedAt = new Promise<number>((resolve) =>
      session.on(
        'startupStatus',
        (e) => e.name === 'silent' && e.status === 'failed' && resolve(Date.now() - t0),
      ),
    );
    const summary = await session.ready();
    const failedAt = await silentFailedAt;

    expect(summary.ready).toHaveLength(20);
    expect(summary.failed.map((f) => f.scope.name)).toEqual(['silent']);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.environmentId).toBeNull();
    expect(failed[0]!.error).toBe(
      'MCP client for `silent` timed out after 8 seconds. Add or adjust `startup_timeout_sec` in your config.toml:\n[mcp_servers.silent]\nstartup_timeout_sec = XX',
    );
    // The timeout is honoured (not the SDK default), and nobody waited for the silent server.
    expect(failedAt).toBeGreaterThanOrEqual(8000);
    expect(failedAt).toBeLessThan(15000);
    expect(Math.max(...readyAt.values())).toBeLessThan(failedAt);
    expect(session.listStatus({ serverName: 'silent' })[0]).toMatchObject({
      startupStatus: 'failed',
      connectionStatus: 'failed',
      failureKind: 'timeout',
    });
    // The silent process was killed when its startup failed.
    const s3 = session.status('s3');
    expect(s3.connectionStatus).toBe('connected');
    expect(
      text(await session.callTool({ server: 's3', tool: 'echo', arguments: { message: 'hi' } })),
    ).toBe('s3: hi');
  });

  it('reports a missing command clearly, naming the server, and keeps the others running', async () => {
    const runtime = load(
      `[mcp_servers.ghost]\ncommand = "definitely-not-a-command-xyz"\n` +
        echoServer('mcp_servers.ok', 'ok'),
    );
    const session = runtime.startSession();
    const summary = await session.ready();
    expect(summary.ready.map((s) => s.name)).toEqual(['ok']);
    const ghost = session.status('ghost');
    expect(ghost.startupStatus).toBe('failed');
    expect(ghost.failureKind).toBe('command_not_found');
    expect(ghost.error).toMatch(
      /^MCP client for `ghost` failed to start: command not found: `definitely-not-a-command-xyz`/,
    );
  });

  it('reports a server that exits during initialize with its exit code and stderr tail', async () => {
    const runtime = load(
      `[mcp_servers.crashy]\ncommand = ${q(NODE)}\nargs = ${arr([
        '-e',
        'process.stderr.write("boom: missing API key\\n"); process.exit(3)',
      ])}\n`,
    );
    const session = runtime.startSession();
    await session.ready();
    const status = session.status('crashy');
    expect(status.failureKind).toBe('exited');
    expect(status.error).toBe(
      'MCP client for `crashy` failed to start: server process exited with code 3 during initialize; stderr: boom: missing API key',
    );
    expect(status.stderrTail).toContain('boom: missing API key');
  });

  it('fails session start when a required server fails, with the aggregated message', async () => {
    const runtime = load(
      `[mcp_servers.needed]\ncommand = "no-such-binary-abc"\nrequired = true\n` +
        `[mcp_servers.also]\ncommand = ${q(NODE)}\nargs = ${arr(['-e', 'process.exit(1)'])}\nrequired = true\n` +
        echoServer('mcp_servers.fine', 'fine', 'required = true'),
    );
    const session = runtime.startSession();
    const error = await session.ready().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequiredServersError);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^required MCP servers failed to initialize: also: MCP client for `also` failed to start: server process exited with code 1 during initialize; needed: MCP client for `needed` failed to start: command not found/,
    );
    expect(message).not.toContain('fine');
  });

  it('does not start disabled servers and reports them as disabled', async () => {
    const runtime = load(
      echoServer('mcp_servers.off', 'off', 'enabled = false') + echoServer('mcp_servers.on', 'on'),
    );
    const events: StartupStatusEvent[] = [];
    const session = runtime.startSession();
    session.on('startupStatus', (e) => events.push(e));
    await session.ready();
    expect(events.some((e) => e.name === 'off')).toBe(false);
    expect(session.status('off')).toMatchObject({
      connectionStatus: 'disabled',
      startupStatus: null,
      pid: null,
    });
    await expect(
      session.callTool({ server: 'off', tool: 'echo', arguments: { message: 'x' } }),
    ).rejects.toThrow('MCP server `off` is not available: it is disabled in the configuration');
  });

  it('kills the whole process group, escalating to SIGKILL after 2 s for a server ignoring SIGTERM', async () => {
    const runtime = load(
      echoServer('mcp_servers.stubborn', 'stubborn').replace(
        '"stubborn"]',
        '"stubborn", "--ignore-sigterm", "--grandchild"]',
      ),
    );
    const session = runtime.startSession();
    await session.ready();
    const info = JSON.parse(
      text(await session.callTool({ server: 'stubborn', tool: 'whoami' })),
    ) as {
      pid: number;
      grandchild: number;
    };
    expect(isAlive(info.pid) && isAlive(info.grandchild)).toBe(true);
    const t0 = Date.now();
    await session.close();
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(6000);
    expect(isAlive(info.pid)).toBe(false);
    expect(isAlive(info.grandchild)).toBe(false);
  });

  it('shuts servers down by process group on close', async () => {
    const runtime = load(echoServer('mcp_servers.a', 'a') + echoServer('mcp_servers.b', 'b'));
    const session = runtime.startSession();
    await session.ready();
    const pids = session.listStatus().map((s) => s.pid!);
    expect(pids.every((pid) => typeof pid === 'number' && isAlive(pid))).toBe(true);
    await session.close();
    expect(pids.some((pid) => isAlive(pid))).toBe(false);
  });
});
