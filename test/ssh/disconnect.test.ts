// Losing the ssh connection: taking sshd down mid-session fails that environment's servers (stdio
// and HTTP) with an error naming the environment, within a bounded time, while local and exec
// servers keep answering. When sshd is back, a reload recovers them; without a reload, the next
// use reconnects once the backoff allows.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Runtime, Session } from '@mcprt/runtime';

import {
  echoServer,
  HTTP_SERVER,
  NODE,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';

const load = useRuntimes();
let sshd: Sshd;
let http: ChildProcess;
let httpPort: number;

beforeAll(async () => {
  http = spawn(NODE, [HTTP_SERVER, '--name', 'web'], { stdio: ['ignore', 'pipe', 'inherit'] });
  httpPort = await new Promise<number>((resolve) => {
    let seen = '';
    http.stdout!.on('data', (c: Buffer) => {
      seen += c.toString();
      const m = /PORT (\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
  });
});
afterAll(() => {
  http.kill();
});
beforeEach(async () => {
  sshd = await Sshd.start([{ home: tempDir() }]);
});
afterEach(async () => {
  await sshd.close();
});

function config(): string {
  return (
    echoServer('mcp_servers.here', 'here') +
    shExecEnvironment('box', tempDir()) +
    echoServer('environments.box.mcp_servers.boxed', 'boxed') +
    sshd.environmentToml('remote', 0, { cwd: '/' }) +
    echoServer('environments.remote.mcp_servers.one', 'one') +
    echoServer('environments.remote.mcp_servers.two', 'two') +
    `[environments.remote.mcp_servers.web]\nurl = "http://127.0.0.1:${httpPort}/mcp"\n`
  );
}

const echo = async (session: Session, server: string, environmentId?: string) =>
  text(
    await session.callTool({
      server,
      tool: 'echo',
      arguments: { message: 'ping' },
      ...(environmentId ? { environmentId } : {}),
    }),
  );

async function startAll(runtime: Runtime): Promise<Session> {
  const session = runtime.startSession();
  const summary = await session.ready();
  expect(summary.failed).toEqual([]);
  expect(summary.ready).toHaveLength(5);
  return session;
}

const LOST =
  /^MCP server `(one|two|web)@remote` stopped: ssh connection to environment `remote` \(.*@127\.0\.0\.1:\d+\) was lost: /;

describe('losing the ssh connection', () => {
  it('fails only that environment, naming it, and a reload after sshd returns recovers', async () => {
    const runtime = load(config());
    const session = await startAll(runtime);
    const lostAt = Date.now();
    await sshd.stop();

    const remote = await waitFor(
      () => {
        const list = session.listStatus({ environmentId: 'remote' });
        return list.every((s) => s.connectionStatus === 'failed') ? list : undefined;
      },
      10_000,
      "the remote environment's servers to fail",
    );
    expect(Date.now() - lostAt).toBeLessThan(10_000);
    for (const s of remote) {
      expect(s.error).toMatch(LOST);
      expect(s.failureKind).toBe('crashed');
    }
    const health = runtime.environments.get('remote')!.health!();
    expect(health.state).toBe('disconnected');
    // The loss itself, or — when a reconnect attempt already ran against the stopped sshd —
    // that attempt's refusal; either names the environment.
    expect(health.error).toMatch(
      /^(ssh connection to environment `remote` .* was lost: |ssh environment `remote` \(.*\) could not connect: .*refused)/,
    );

    // Everything else keeps answering.
    expect(await echo(session, 'here')).toBe('here: ping');
    expect(await echo(session, 'boxed', 'box')).toBe('boxed: ping');

    // The next use tries to reconnect, fails (sshd is down), and then backs off.
    await expect(echo(session, 'one', 'remote')).rejects.toThrow(
      /^MCP server `one@remote` is not available: MCP client for `one@remote` failed to start: ssh environment `remote` \(.*\) could not connect: .*Connection refused/,
    );
    await expect(echo(session, 'one', 'remote')).rejects.toThrow(
      /ssh environment `remote` \(.*\) is disconnected: .*; next reconnect attempt in \d+ s/,
    );

    await sshd.start();
    const logins = sshd.acceptedLogins();
    await runtime.reload();
    await session.ready();
    expect(
      session.listStatus().map((s) => `${s.name}@${s.environmentId}:${s.connectionStatus}`),
    ).toEqual([
      'here@null:connected',
      'boxed@box:connected',
      'one@remote:connected',
      'two@remote:connected',
      'web@remote:connected',
    ]);
    expect(await echo(session, 'one', 'remote')).toBe('one: ping');
    expect(await echo(session, 'web', 'remote')).toBe('web: ping');
    expect(runtime.environments.get('remote')!.health!().state).toBe('ready');
    expect(sshd.acceptedLogins() - logins).toBe(1);
  });

  it('reconnects on the next use once sshd is back and the backoff has passed', async () => {
    const runtime = load(config());
    const session = await startAll(runtime);
    await sshd.stop();
    await waitFor(
      () => session.status('two', 'remote').connectionStatus === 'failed',
      10_000,
      'two@remote to fail',
    );
    await expect(echo(session, 'two', 'remote')).rejects.toThrow(/could not connect/);
    const retryAt = runtime.environments.get('remote')!.health!().nextAttemptAt!;
    expect(retryAt).toBeGreaterThan(Date.now() - 1000);
    await sshd.start();
    await new Promise((r) => setTimeout(r, Math.max(0, retryAt - Date.now()) + 50));
    expect(await echo(session, 'two', 'remote')).toBe('two: ping');
    expect(session.status('two', 'remote').connectionStatus).toBe('connected');
    // Only the server that was used came back; the other waits for its own next use.
    expect(session.status('one', 'remote').connectionStatus).toBe('failed');
    expect(await echo(session, 'one', 'remote')).toBe('one: ping');
  });
});
