// Supervision under real faults (test/fixtures/servers/fault-server.mjs): every fault fails
// alone and clearly while a sibling keeps answering, in-flight calls fail fast when a server
// dies, crashed servers restart with backoff, memory stays bounded, no process is left behind.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';

import {
  arr,
  HTTP_SESSION_SERVER,
  FAULT_SERVER,
  NODE,
  q,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

function fault(name: string, flags: string[], extra = ''): string {
  return `[mcp_servers.${name}]\ncommand = ${q(NODE)}\nargs = ${arr([FAULT_SERVER, '--name', name, ...flags])}\n${extra}\n`;
}
const SIBLING = fault('sibling', []);

async function siblingAnswers(session: Session): Promise<void> {
  const r = await session.callTool({
    server: 'sibling',
    tool: 'echo',
    arguments: { nonce: 'sib' },
  });
  expect(JSON.parse(text(r))).toEqual({ nonce: 'sib', server: 'sibling' });
}

/** Descendant processes of this test process (pid, state) from the process table. */
function descendants(): { pid: number; stat: string }[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, stat]) => ({ pid: Number(pid), ppid: Number(ppid), stat: stat ?? '' }));
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows) {
      if (mine.has(r.ppid) && !mine.has(r.pid)) {
        mine.add(r.pid);
        grew = true;
      }
    }
  }
  mine.delete(process.pid);
  return rows.filter((r) => mine.has(r.pid)).map(({ pid, stat }) => ({ pid, stat }));
}

describe('crash mid-call and restart', () => {
  it('fails every in-flight call fast, naming the server, then restarts it with backoff', async () => {
    const runtime = load(
      fault('crashy', [], 'restart_backoff_sec = 0.2\nrestart_wait_sec = 5') + SIBLING,
    );
    const session = runtime.startSession();
    await session.ready();
    const firstPid = session.status('crashy').pid;
    const hanging = [1, 2, 3].map((i) =>
      session
        .callTool({ server: 'crashy', tool: 'act', arguments: { nonce: i, fault: 'hang' } })
        .then(
          () => null,
          (e: unknown) => ({ error: e as Error, at: Date.now() }),
        ),
    );
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    const crash = await session
      .callTool({ server: 'crashy', tool: 'act', arguments: { nonce: 'boom', fault: 'crash' } })
      .catch((e: unknown) => e as Error);
    const failures = await Promise.all(hanging);
    for (const f of failures) {
      expect(f).not.toBeNull();
      expect(f!.at - t0).toBeLessThan(400);
      expect(f!.error.message).toBe(
        'tools/call to MCP server `crashy` failed: the server stopped during the call (server process exited with code 4)',
      );
    }
    expect((crash as Error).message).toContain('the server stopped during the call');
    await siblingAnswers(session);

    await waitFor(
      () => session.status('crashy').connectionStatus === 'connected',
      10_000,
      'restart',
    );
    const status = session.status('crashy');
    expect(status.restartCount).toBe(1);
    expect(status.lastExit).toEqual({ code: 4, signal: null });
    expect(status.pid).not.toBe(firstPid);
    const again = await session.callTool({
      server: 'crashy',
      tool: 'act',
      arguments: { nonce: 'after' },
    });
    expect(JSON.parse(text(again))).toEqual({ nonce: 'after', server: 'crashy' });
  });

  it('gives up after restart_max_attempts, with the cause; restart = "never" does not restart', async () => {
    const runtime = load(
      fault(
        'always',
        ['--crash-after', '1'],
        'restart_max_attempts = 2\nrestart_backoff_sec = 0.05\nrestart_wait_sec = 10',
      ) +
        fault('once', ['--crash-after', '1'], 'restart = "never"') +
        SIBLING,
    );
    const session = runtime.startSession();
    await session.ready();
    for (let i = 0; i < 3; i++) {
      await session
        .callTool({ server: 'always', tool: 'echo', arguments: { nonce: i } })
        .catch(() => undefined);
      await waitFor(
        () => !session.status('always').restarting || undefined,
        10_000,
        'restart settles',
      );
    }
    const always = session.status('always');
    expect(always.connectionStatus).toBe('failed');
    expect(always.restartCount).toBe(2);
    expect(always.failureKind).toBe('crashed');
    expect(always.error).toBe(
      'MCP server `always` stopped: server process exited with code 3 (gave up after 2 restarts)',
    );
    expect(always.stderrTail).toContain('always: crashing on call 1');

    await session
      .callTool({ server: 'once', tool: 'echo', arguments: { nonce: 1 } })
      .catch(() => undefined);
    await waitFor(() => session.status('once').connectionStatus === 'failed', 5000, 'once failed');
    expect(session.status('once')).toMatchObject({
      restartCount: 0,
      error: 'MCP server `once` stopped: server process exited with code 3',
    });
    await expect(session.callTool({ server: 'once', tool: 'echo' })).rejects.toThrow(
      'MCP server `once` is not available',
    );
    await siblingAnswers(session);
  });
});

describe('each fault fails alone and clearly', () => {
  it('exit during initialize: failed with exit code and stderr, not retried', async () => {
    const runtime = load(fault('noinit', ['--exit-during-init']) + SIBLING);
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('noinit')).toMatchObject({
      connectionStatus: 'failed',
      failureKind: 'exited',
      restartCount: 0,
      error:
        'MCP client for `noinit` failed to start: server process exited with code 2 during initialize; stderr: noinit: refusing to initialize',
    });
    await siblingAnswers(session);
  });

  it('hang: the call fails at its timeout; garbage lines are skipped; drip and floods still answer', async () => {
    const runtime = load(
      fault('hang', ['--hang'], 'tool_timeout_sec = 0.5') +
        fault('garbage', ['--garbage']) +
        fault('drip', ['--drip']) +
        fault('flood', ['--flood', '3000']) +
        SIBLING,
    );
    const session = runtime.startSession();
    await session.ready();
    await expect(
      session.callTool({ server: 'hang', tool: 'echo', arguments: { nonce: 1 } }),
    ).rejects.toThrow(/timed out/i);
    for (const server of ['garbage', 'drip', 'flood']) {
      const r = await session.callTool({ server, tool: 'echo', arguments: { nonce: server } });
      expect(JSON.parse(text(r))).toEqual({ nonce: server, server });
    }
    await siblingAnswers(session);
  });

  it('a 100 MB line fails the connection with a clear error and keeps memory bounded', async () => {
    const runtime = load(fault('huge', ['--huge-line', '100'], 'restart = "never"') + SIBLING);
    const session = runtime.startSession();
    await session.ready();
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const error = await session
      .callTool({ server: 'huge', tool: 'huge' })
      .catch((e: unknown) => e as Error);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(error.message).toBe(
      'tools/call to MCP server `huge` failed: the server stopped during the call (a message from the server exceeds max_message_bytes (67108864 bytes))',
    );
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    await waitFor(() => session.status('huge').connectionStatus === 'failed', 5000, 'huge failed');
    await siblingAnswers(session);
  });

  it('closing stdout while staying alive ends the connection and the process', async () => {
    const runtime = load(fault('mute', ['--close-stdout'], 'restart = "never"') + SIBLING);
    const session = runtime.startSession();
    await session.ready().catch(() => undefined);
    await waitFor(
      () => session.status('mute').connectionStatus === 'failed',
      10_000,
      'mute failed',
    );
    expect(session.status('mute').error).toMatch(/the server closed its stdout/);
    await siblingAnswers(session);
    await waitFor(
      () => !descendants().some((d) => d.stat.startsWith('Z')) || undefined,
      5000,
      'no zombies',
    );
  });

  it('a missed health-check ping counts as a crash and restarts the server', async () => {
    const runtime = load(
      fault(
        'deaf',
        ['--no-ping'],
        'health_check_interval_sec = 0.3\nrestart_backoff_sec = 0.05\nrestart_max_attempts = 1',
      ) + SIBLING,
    );
    const session = runtime.startSession();
    await session.ready();
    await waitFor(
      () => session.status('deaf').restartCount >= 1 || undefined,
      10_000,
      'health restart',
    );
    expect(session.status('deaf').error ?? '').toMatch(/health check failed: no answer to ping/);
    await siblingAnswers(session);
  });

  it('leaves no zombie or orphan process after close', async () => {
    const runtime = load(fault('a', ['--ignore-sigterm']) + fault('b', []) + SIBLING);
    const session = runtime.startSession();
    await session.ready();
    const pids = session.listStatus().map((s) => s.pid!);
    expect(descendants().map((d) => d.pid)).toEqual(expect.arrayContaining(pids));
    await runtime.close();
    await waitFor(
      () => descendants().every((d) => !pids.includes(d.pid)) || undefined,
      5000,
      'children gone',
    );
    expect(descendants().filter((d) => d.stat.startsWith('Z'))).toEqual([]);
  });
});

describe('HTTP session recovery', () => {
  let server: ChildProcess;
  let base: string;
  beforeAll(async () => {
    server = spawn(NODE, [HTTP_SESSION_SERVER, '--name', 'stateful'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve) =>
      server.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    server.kill();
  });

  it('re-initializes when the server no longer knows the session (404) and retries the call once', async () => {
    const runtime = load(`[mcp_servers.web]\nurl = "${base}/mcp"\n`);
    const session = runtime.startSession();
    await session.ready();
    const first = JSON.parse(text(await session.callTool({ server: 'web', tool: 'session' }))) as {
      session: string;
    };
    await fetch(`${base}/reset`, { method: 'POST' });
    const second = JSON.parse(text(await session.callTool({ server: 'web', tool: 'session' }))) as {
      session: string;
      initializations: number;
    };
    expect(second.session).not.toBe(first.session);
    expect(session.status('web').connectionStatus).toBe('connected');
    expect(
      text(await session.callTool({ server: 'web', tool: 'echo', arguments: { message: 'ok' } })),
    ).toBe('stateful: ok');
  });
});
