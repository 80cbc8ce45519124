/**
 * The launcher key for local stdio servers: only a path that is absolute and passed the probe
 * is sent, the probe runs once per path however many calls (and sessions) follow, and a relative
 * name is never looked up on PATH. Launchers here are real scripts that log each invocation.
 */

import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { NODE, q, tempDir } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { assertBubblewrapWorks, CLI, metaServer, receivedMeta } from './helpers.js';

const load = useRuntimes();
const STATE = { sandboxPolicy: { type: 'readOnly' } };

/** An executable script that appends its arguments to `log`, then runs `body`. */
function launcher(body: string, name = 'launcher'): { path: string; log: string } {
  const dir = tempDir('mcprt-fake-launcher-');
  const path = join(dir, name);
  const log = join(dir, 'invocations.log');
  writeFileSync(path, `#!/bin/sh\necho "$*" >> ${q(log)}\n${body}\n`);
  chmodSync(path, 0o755);
  return { path, log };
}

const invocations = (log: string): string[] =>
  existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];

/** Launcher keys seen by `calls` calls in each of two sessions of one runtime. */
async function launchersSeen(configLine: string, calls = 4): Promise<unknown[]> {
  const runtime = load(configLine + metaServer('mcp_servers.srv', 'current'));
  const seen: unknown[] = [];
  for (let s = 0; s < 2; s++) {
    const session = runtime.startSession({ sandboxState: STATE });
    const results = await Promise.all(
      Array.from({ length: calls }, () => session.callTool({ server: 'srv', tool: 'meta' })),
    );
    for (const r of results) {
      const meta = receivedMeta(r);
      expect(meta?.['codex/sandbox-state']).toEqual(STATE);
      seen.push(meta?.['codex/sandbox-launcher']);
    }
  }
  return seen;
}

beforeAll(() => assertBubblewrapWorks());

describe('sandbox_launcher', () => {
  it('a launcher that fails the probe is omitted, and the probe ran once across many calls', async () => {
    const bad = launcher('exit 1');
    const seen = await launchersSeen(`sandbox_launcher = ${q(bad.path)}\n`);
    expect(seen).toHaveLength(8);
    expect(seen.every((l) => l === undefined)).toBe(true);
    const runs = invocations(bad.log);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^sandbox --sandbox-state-json \{.*\} -- /);
  });

  it('a launcher that runs a command under a state it cannot enforce is omitted', async () => {
    // Runs whatever it is given, ignoring the state: not fail-closed, so not a launcher.
    const naive = launcher('shift 4\nexec "$@"');
    const seen = await launchersSeen(`sandbox_launcher = ${q(naive.path)}\n`);
    expect(seen.every((l) => l === undefined)).toBe(true);
    expect(invocations(naive.log)).toHaveLength(2); // one probe: the good state, then the bad one
  });

  it('a configured launcher that passes the probe is sent on every call; probed once', async () => {
    const good = launcher(`exec ${q(NODE)} ${q(CLI)} "$@"`, 'codex');
    const seen = await launchersSeen(`sandbox_launcher = ${q(good.path)}\n`);
    expect(seen).toEqual(Array.from({ length: 8 }, () => ({ codexExecutable: good.path })));
    expect(invocations(good.log)).toHaveLength(2);
  });

  it('a launcher whose sandbox loses writes to sockets still passes (Codex: seccomp under a restricted network)', async () => {
    // Like Codex's own launcher run from a Node host: output to a socket never arrives.
    const socketless = launcher(
      `if [ -S /dev/stdout ]; then exit 0; fi\nexec ${q(NODE)} ${q(CLI)} "$@"`,
      'codex',
    );
    const seen = await launchersSeen(`sandbox_launcher = ${q(socketless.path)}\n`, 1);
    expect(seen).toEqual([
      { codexExecutable: socketless.path },
      { codexExecutable: socketless.path },
    ]);
  });

  it('a relative name is never looked up on PATH: nothing runs and no launcher is sent', async () => {
    const onPath = launcher(`exec ${q(NODE)} ${q(CLI)} "$@"`, 'mcprt-path-launcher');
    const previous = process.env['PATH'];
    process.env['PATH'] = `${join(onPath.path, '..')}:${previous ?? ''}`;
    try {
      const seen = await launchersSeen('sandbox_launcher = "mcprt-path-launcher"\n');
      expect(seen.every((l) => l === undefined)).toBe(true);
    } finally {
      process.env['PATH'] = previous;
    }
    expect(invocations(onPath.log)).toEqual([]);
  });

  it('an absolute path that does not exist is omitted', async () => {
    const missing = join(tempDir(), 'no-such-launcher');
    const seen = await launchersSeen(`sandbox_launcher = ${q(missing)}\n`, 2);
    expect(seen.every((l) => l === undefined)).toBe(true);
  });
});
