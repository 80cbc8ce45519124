// The ssh control master SIGKILLed while the host stays up (found by the soak benchmark): a killed
// master cannot unlink its control socket, and the environment must still reconnect — a new
// master with a working socket, not one that "disabled multiplexing" — and its servers come back
// under their restart policy or on their next use: through the library Session, and through
// `mcprt serve`, whose clients reach a server lost with its environment only through its tools
// staying listed. Every call meanwhile answers, or fails naming `server@env`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clientArgs, masterArgs } from '../../packages/runtime/src/environments/sshCommand.js';
import {
  MASTER_REMOTE_COMMAND,
  SshMaster,
} from '../../packages/runtime/src/environments/sshMaster.js';
import { runSsh } from '../../packages/runtime/src/environments/sshRun.js';
import { echoServer, FAULT_SERVER, makeHome, tempDir, text, waitFor } from '../helpers/fixtures.js';
import type { SshEnvironmentConfig } from '@mcprt/runtime';

import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';
import { stdioGateway, stdioServer, texts } from '../gateway/helpers.js';

const load = useRuntimes();
let sshd: Sshd;

beforeEach(async () => {
  sshd = await Sshd.start([{ home: tempDir() }]);
});
afterEach(async () => {
  await sshd.close();
});

const config = () =>
  sshd.environmentToml('remote', 0, { cwd: '/' }) +
  echoServer('environments.remote.mcp_servers.one', 'one') +
  echoServer('environments.remote.mcp_servers.two', 'two');

/** Live `ssh -M` masters connected to this test's sshd (from /proc). */
function masters(): number[] {
  const port = String(sshd.ports[0]);
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) return false;
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const p = argv.indexOf('-p');
        return argv[0] === 'ssh' && argv.includes('ControlMaster=yes') && argv[p + 1] === port;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** SIGKILL the one master, once it is gone. */
async function killMaster(): Promise<number> {
  const [master, ...more] = masters();
  expect(master).toBeDefined();
  expect(more).toEqual([]);
  process.kill(master!, 'SIGKILL');
  while (masters().includes(master!)) await new Promise((r) => setTimeout(r, 10));
  return master!;
}

/**
 * Call `call(server)` for both servers every 50 ms until each has answered `<server>: ping`
 * three times in a row (a bounded time); every other outcome must name `<server>@remote`.
 */
async function untilBack(call: (server: string) => Promise<string>): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  const streak = new Map([
    ['one', 0],
    ['two', 0],
  ]);
  const failures: string[] = [];
  while ([...streak.values()].some((n) => n < 3)) {
    if (Date.now() > deadline) {
      throw new Error(`not back within 20 s; outcomes:\n${failures.slice(-6).join('\n')}`);
    }
    for (const server of streak.keys()) {
      let outcome: string;
      try {
        outcome = await call(server);
      } catch (error) {
        outcome = (error as Error).message;
      }
      if (outcome === `${server}: ping`) {
        streak.set(server, streak.get(server)! + 1);
      } else {
        streak.set(server, 0);
        failures.push(outcome);
        expect(outcome).toContain(`\`${server}@remote\``);
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return failures;
}

describe('the ssh control master is SIGKILLed', () => {
  it('the environment reconnects and its servers are callable again (library session)', async () => {
    const runtime = load(config());
    const session = runtime.startSession();
    expect((await session.ready()).ready).toHaveLength(2);
    const call = async (server: string) =>
      text(
        await session.callTool({
          server,
          environmentId: 'remote',
          tool: 'echo',
          arguments: { message: 'ping' },
        }),
      );
    expect(await call('one')).toBe('one: ping');
    const logins = sshd.acceptedLogins();

    const killed = await killMaster();
    await untilBack(call);

    const environment = runtime.environments.get('remote')!;
    expect(environment.health!().state).toBe('ready');
    const now = masters();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(killed);
    // One new connection, shared by both servers.
    expect(sshd.acceptedLogins() - logins).toBe(1);
    expect(session.listStatus().map((s) => `${s.name}:${s.connectionStatus}`)).toEqual([
      'one:connected',
      'two:connected',
    ]);
  });

  it('through `mcprt serve`, the tools stay listed and answer again', async () => {
    const gateway = await stdioGateway(makeHome(config()), 'auto');
    try {
      const names = async () => (await gateway.client.listTools()).tools.map((t) => t.name);
      const listed = await names();
      expect(listed).toEqual(expect.arrayContaining(['remote__one__echo', 'remote__two__echo']));
      const call = async (server: string) => {
        const result = await gateway.client.callTool({
          name: `remote__${server}__echo`,
          arguments: { message: 'ping' },
        });
        return texts(result).join('\n');
      };
      expect(await call('two')).toBe('two: ping');

      await killMaster();
      // Never `Unknown tool`: a server lost with its environment keeps its tools listed.
      const failures = await untilBack(call);
      expect(failures.join('\n')).not.toContain('Unknown tool');
      expect(await names()).toEqual(listed);
      // Its log says what a client sees: the tools stay, the next call starts the server again.
      expect(gateway.stderr()).toMatch(
        /warning: MCP server `(one|two)@remote` failed: MCP server `\1@remote` stopped: ssh connection to environment `remote` .* was lost: .*; its \d+ tools stay listed and the next call starts it again\n/,
      );
      expect(gateway.stderr()).not.toContain('its tools are unavailable');
      expect(masters()).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });

  it('a lost server keeps its resources and prompts listed until its next use revives it', async () => {
    const runtime = load(
      sshd.environmentToml('remote', 0, { cwd: '/' }) +
        stdioServer('environments.remote.mcp_servers.notes', FAULT_SERVER, [
          '--name',
          'notes',
          '--resources',
        ]),
    );
    const session = runtime.startSession();
    expect((await session.ready()).ready).toHaveLength(1);
    const listed = async () => ({
      resources: (await session.listResources()).data,
      prompts: (await session.listPrompts()).data,
    });
    const before = await listed();
    expect(before.resources).toEqual([
      {
        scope: { environmentId: 'remote', name: 'notes' },
        items: [{ uri: 'fault://notes/note', name: 'note' }],
      },
    ]);
    const read = async () =>
      (
        await session.readResource({
          server: 'notes',
          environmentId: 'remote',
          uri: 'fault://notes/note',
        })
      ).contents[0] as { text: string };
    const firstPid = (await read()).text;

    await killMaster();
    await waitFor(
      () => session.listStatus()[0]?.connectionStatus === 'failed' || undefined,
      10_000,
      'notes@remote lost',
    );
    // Lost (not revived yet): listed as its server last listed them, as its tools are.
    expect(session.listStatus()[0]?.tools.map((t) => t.name)).toContain('echo');
    expect(await listed()).toEqual(before);
    // The next use revives it: a new server process answers.
    const revived = (await read()).text;
    expect(revived).toMatch(/^notes note \(pid \d+\)$/);
    expect(revived).not.toBe(firstPid);
    expect(await listed()).toEqual(before);
  });

  it('a new master on the control path of a SIGKILLed one multiplexes again', async () => {
    const config: SshEnvironmentConfig = {
      id: 'remote',
      type: 'ssh',
      host: '127.0.0.1',
      user: sshd.user,
      port: sshd.ports[0]!,
      identityFile: sshd.clientKey,
      sshOptions: sshd.sshOptions,
      cwd: null,
      description: null,
      location: { file: 'test', line: 1, column: 1, keyPath: 'environments.remote' },
    };
    const controlPath = join(tempDir(), 'cm');
    const start = () =>
      new SshMaster({
        environmentId: 'remote',
        destination: 'here',
        args: masterArgs(config, controlPath, MASTER_REMOTE_COMMAND),
        controlPath,
        processEnv: process.env,
        timeoutMs: 15_000,
      });
    const session = () =>
      runSsh(process.env, clientArgs(config, controlPath, 'echo multiplexed'), 10_000);
    const first = start();
    await first.ready;
    expect((await session()).stdout.toString()).toBe('multiplexed\n');
    await killMaster();
    await first.exited;
    expect(existsSync(controlPath)).toBe(true); // the dead master's socket stays behind

    const second = start();
    try {
      await second.ready;
      const run = await session();
      expect(run.stderr.join('\n').trim()).toBe('');
      expect(run.stdout.toString()).toBe('multiplexed\n');
    } finally {
      await second.stop();
    }
  });
});
