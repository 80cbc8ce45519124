// No process outlives mcprt. Each test starts stubborn servers in three places — this machine,
// an exec environment and an ssh environment (a real sshd on 127.0.0.1, so the "remote" processes
// are in this machine's /proc too) — two of each: one that ignores SIGTERM and stdin EOF and has
// a child that does too, and one that obeys SIGTERM but leaves such a child behind. Then mcprt
// ends one way or another (runtime.close(); the app-server on stdin EOF, SIGTERM, SIGINT, its
// parent dying; the WebSocket app-server on SIGTERM; `mcprt serve` on SIGTERM; `mcprt status`
// finishing), and /proc must hold
// no process of the runtime's tree: no server, no child, no ssh client, no ssh master.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { KILL_GRACE_MS, Runtime } from '@mcprt/runtime';

import {
  arr,
  FAULT_SERVER,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { CLI, RawAppServer } from '../helpers/rpcClient.js';
import { Sshd } from '../helpers/sshd.js';

let sshd: Sshd;
beforeAll(async () => {
  sshd = await Sshd.start([{ home: tempDir('mcprt-remote-home-') }]);
});
afterAll(async () => {
  await sshd.close();
});
// A failed test must not leave its survivors to the next one: end them (by pid) after each.
const tags: string[] = [];
afterEach(() => {
  for (const line of processesWith(tags.splice(0))) {
    try {
      process.kill(Number(line.split(' ')[0]), 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** Live processes whose command line holds `needle` (zombies have none), as `pid cmdline`. */
function processesWith(needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue; // gone meanwhile
    }
    if (needles.some((n) => cmdline.includes(n))) found.push(`${entry} ${cmdline.trim()}`);
  }
  return found;
}

/** A config with the six stubborn servers, all named after `tag` (so /proc finds them). */
function stubbornConfig(tag: string): string {
  const server = (table: string, name: string, flags: string[]) =>
    `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([FAULT_SERVER, '--name', `${tag}-${name}`, ...flags])}\n`;
  const servers = (prefix: string) =>
    server(`${prefix}mcp_servers.stubborn`, 'stubborn', ['--ignore-sigterm', '--child']) +
    server(`${prefix}mcp_servers.leaver`, 'leaver', ['--child']);
  return (
    servers('') +
    shExecEnvironment('box', tempDir()) +
    servers('environments.box.') +
    sshd.environmentToml('remote', 0, { cwd: '/' }) +
    servers('environments.remote.')
  );
}

/** What belongs to the runtime's tree: the servers and their children, ssh clients and master. */
const treeOf = (tag: string) => [tag, sshd.clientKey];

const THREAD = {
  environments: [
    { environmentId: 'box', cwd: '/' },
    { environmentId: 'remote', cwd: '/' },
  ],
};

/** Every server, child and ssh process is up: 6 servers + 6 children + 2 ssh clients + master. */
async function expectTreeUp(tag: string): Promise<void> {
  const up = await waitFor(
    () => {
      const found = processesWith(treeOf(tag));
      const child = new RegExp(` ${tag}-(stubborn|leaver)-child$`);
      return found.filter((p) => child.test(p)).length === 6 && found.length >= 15
        ? found
        : undefined;
    },
    20_000,
    'every server and child process',
  ).catch((error: Error) => {
    throw new Error(`${error.message}:\n${processesWith(treeOf(tag)).join('\n')}`);
  });
  expect(up.filter((p) => p.includes(`${tag}-stubborn`)).length).toBeGreaterThanOrEqual(6);
}

const ready = (m: Message) =>
  m.method === 'mcpServer/startupStatus/updated' &&
  (m.params as { status: string }).status === 'ready';

/** An app-server with all six servers running in a thread. */
async function appServerWithServers(tag: string, args: string[] = []): Promise<RawAppServer> {
  const app = RawAppServer.start(makeHome(stubbornConfig(tag)), args);
  await app.initialize();
  await app.call('thread/start', { cwd: tempDir(), ...THREAD });
  await waitFor(() => app.messages.filter(ready).length >= 6 || undefined, 30_000, 'six ready');
  await expectTreeUp(tag);
  return app;
}

function exited(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve({ code: child.exitCode, ms: 0 });
    else child.once('exit', (code) => resolve({ code, ms: Date.now() - t0 }));
  });
}

/** Grace + 1 s is the bound; the rest is slack for a loaded two-core machine. */
const BOUND_MS = KILL_GRACE_MS + 1000 + 4000;
function newTag(): string {
  const tag = `mcprt-survivor-${randomBytes(4).toString('hex')}`;
  tags.push(tag);
  return tag;
}

describe('no process outlives mcprt (local, exec and ssh servers that ignore SIGTERM and stdin EOF)', () => {
  it('runtime.close()', { timeout: 60_000 }, async () => {
    const tag = newTag();
    const runtime = Runtime.load({ home: makeHome(stubbornConfig(tag)) });
    const session = runtime.startSession({ cwd: tempDir(), ...THREAD });
    await session.ready();
    expect(session.listStatus().filter((s) => s.connectionStatus === 'connected')).toHaveLength(6);
    await expectTreeUp(tag);
    const t0 = Date.now();
    await runtime.close();
    expect(Date.now() - t0).toBeLessThan(BOUND_MS);
    expect(processesWith(treeOf(tag))).toEqual([]);
  });

  for (const [how, end] of [
    ['stdin EOF', (app: RawAppServer) => app.child.stdin.end()],
    ['SIGTERM', (app: RawAppServer) => app.child.kill('SIGTERM')],
    ['SIGINT', (app: RawAppServer) => app.child.kill('SIGINT')],
  ] as const) {
    it(`the app-server on ${how}`, { timeout: 60_000 }, async () => {
      const tag = newTag();
      const app = await appServerWithServers(tag);
      const done = exited(app.child);
      end(app);
      const { code, ms } = await done;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(BOUND_MS);
      expect(processesWith(treeOf(tag))).toEqual([]);
    });
  }

  it('the app-server when its parent dies (stdin still open)', { timeout: 60_000 }, async () => {
    const tag = newTag();
    const home = makeHome(stubbornConfig(tag));
    // A parent shell between us and the app-server; stdin stays open (we hold it), so only the
    // parent's death can tell the app-server to stop.
    const parent = spawn(
      'sh',
      ['-c', `exec 3<&0; ${q(NODE)} ${q(CLI)} --home ${q(home)} app-server <&3 3<&- & wait`],
      {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const send = (m: object) => parent.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      method: 'initialize',
      id: 1,
      params: { clientInfo: { name: 't', version: '1' }, capabilities: { experimentalApi: true } },
    });
    send({ method: 'initialized' });
    send({ method: 'thread/start', id: 2, params: { cwd: tempDir(), ...THREAD } });
    await waitFor(
      () => (out.match(/"status":"ready"/g) ?? []).length >= 6 || undefined,
      30_000,
      'six ready',
    );
    await expectTreeUp(tag);
    const appServer = processesWith([`${home} app-server`]);
    expect(appServer).toHaveLength(1);
    parent.kill('SIGKILL');
    await waitFor(
      () => processesWith(treeOf(tag)).length === 0 || undefined,
      BOUND_MS + 1000,
      'the tree to go',
    );
    await waitFor(
      () => processesWith([`${home} app-server`]).length === 0 || undefined,
      2000,
      'the app-server to exit',
    );
    parent.stdin.end();
  });

  it('the WebSocket app-server on SIGTERM', { timeout: 60_000 }, async () => {
    const tag = newTag();
    const tokenFile = `${tempDir()}/token`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(tokenFile, 'a-test-token-of-enough-length\n', { mode: 0o600 });
    const home = makeHome(stubbornConfig(tag));
    const child = spawn(
      NODE,
      [
        CLI,
        '--home',
        home,
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
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await waitFor(
      () => /listening on (ws:\/\/\S+)/.exec(err)?.[1],
      20_000,
      'listening',
    );
    const { McprtClient } = await import('@mcprt/sdk');
    const client = await McprtClient.connect(url, {
      clientInfo: { name: 't', version: '1' },
      token: 'a-test-token-of-enough-length',
    });
    let readyCount = 0;
    client.on('mcpServer/startupStatus/updated', (p) => {
      if (p.status === 'ready') readyCount += 1;
    });
    await client.request('thread/start', { cwd: tempDir(), ...THREAD });
    await waitFor(() => readyCount >= 6 || undefined, 30_000, 'six ready');
    await expectTreeUp(tag);
    const done = exited(child);
    child.kill('SIGTERM');
    const { code, ms } = await done;
    await client.close().catch(() => undefined);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(processesWith(treeOf(tag))).toEqual([]);
  });

  it('`mcprt serve` (the gateway, over stdio) on SIGTERM', { timeout: 60_000 }, async () => {
    const tag = newTag();
    const home = makeHome(stubbornConfig(tag));
    const child = spawn(
      NODE,
      [CLI, '--home', home, 'serve', '--environment', 'box', '--environment', 'remote'],
      { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    // Servers start with the first client.
    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list', params: {} });
    await expectTreeUp(tag);
    const done = exited(child);
    child.kill('SIGTERM');
    const { code, ms } = await done;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(processesWith(treeOf(tag))).toEqual([]);
  });

  it(
    '`mcprt status` (the CLI starts every server, prints, and exits)',
    { timeout: 60_000 },
    async () => {
      const tag = newTag();
      // Only thread-wide servers start without a thread's environments: the local pair.
      const child = spawn(NODE, [CLI, '--home', makeHome(stubbornConfig(tag)), 'status'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const { code } = await exited(child);
      expect(out).toContain('stubborn: connected');
      expect(code).toBe(0);
      expect(processesWith(treeOf(tag))).toEqual([]);
    },
  );
});
