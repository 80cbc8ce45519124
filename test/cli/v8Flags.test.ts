// ADR 0032: no mcprt process changes a V8 flag at run time (`v8.setFlagsFromString`, which Node
// documents as unsafe once the VM has started); a V8 flag is passed at process start, on node's
// command line. The CLI runs under a preload that wraps `v8.setFlagsFromString` to report every
// call on stderr; the servers, the runtime and the calls are real.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, describe, expect, it } from 'vitest';

import { echoServer, makeHome, NODE, tempDir } from '../helpers/fixtures.js';
import { CLI, RawAppServer } from '../helpers/rpcClient.js';

/** A `--import` module: every `setFlagsFromString` call is written to stderr as `V8FLAGS …`. */
function flagLogger(): string {
  const file = join(tempDir('mcprt-v8-'), 'v8log.mjs');
  writeFileSync(
    file,
    `import { createRequire, syncBuiltinESMExports } from 'node:module';
const v8 = createRequire(import.meta.url)('node:v8');
const original = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  process.stderr.write('V8FLAGS ' + flags + '\\n');
  return original(flags);
};
syncBuiltinESMExports();
process.stderr.write('EXECARGV ' + JSON.stringify(process.execArgv) + '\\n');
`,
  );
  return file;
}

const linesOf = (server: RawAppServer, prefix: string) =>
  server.stderr
    .join('')
    .split('\n')
    .filter((line) => line.startsWith(prefix));

const started: RawAppServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

function spawnCli(home: string, command: 'app-server' | 'serve', nodeArgs: string[] = []) {
  const server = RawAppServer.spawn(
    NODE,
    [...nodeArgs, '--import', flagLogger(), CLI, '--home', home, command],
    process.env,
  );
  started.push(server);
  return server;
}

/** An app-server with a thread whose `echo` server is ready. */
async function readyAppServer(nodeArgs: string[] = []) {
  const home = makeHome(echoServer('mcp_servers.echo', 'local'));
  const server = spawnCli(home, 'app-server', nodeArgs);
  await server.initialize();
  const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {});
  await server.waitFor(
    (m) =>
      m.method === 'mcpServer/startupStatus/updated' &&
      (m.params as { status: string }).status === 'ready',
  );
  const call = () =>
    server.call('mcpServer/tool/call', {
      threadId: thread.id,
      server: 'echo',
      tool: 'echo',
      arguments: { message: 'hi' },
    });
  return { server, call };
}

/** The preload ran (so a `setFlagsFromString` call would have been seen). */
const preloaded = (server: RawAppServer) => expect(linesOf(server, 'EXECARGV ')).toHaveLength(1);

describe('V8 flags only at process start (ADR 0032)', () => {
  it('app-server: no V8 flag changed before, during or after tool calls', async () => {
    const { server, call } = await readyAppServer();
    preloaded(server);
    for (let i = 0; i < 3; i++) {
      await expect(call()).resolves.toMatchObject({
        content: [{ type: 'text', text: 'local: hi' }],
      });
    }
    // ADR 0026's change came one turn after the first call; give any such hook time to run.
    await sleep(200);
    expect(linesOf(server, 'V8FLAGS ')).toEqual([]);
  });

  it('serve: no V8 flag changed before, during or after tool calls', async () => {
    const home = makeHome(echoServer('mcp_servers.echo', 'local'));
    const gateway = spawnCli(home, 'serve');
    const call = async <T>(method: string, params: unknown) => {
      const reply = await gateway.request(method, params, { jsonrpc: '2.0' });
      expect(reply.error).toBeUndefined();
      return reply.result as T;
    };
    await call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'mcprt-test', version: '0.0.1' },
    });
    gateway.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await gateway.waitFor(
      (m) =>
        m.method === 'notifications/message' &&
        String((m.params as { data: unknown }).data).includes('is ready'),
    );
    const { tools } = await call<{ tools: { name: string }[] }>('tools/list', {});
    const echo = tools.find((t) => t.name.endsWith('echo'));
    expect(echo).toBeDefined();
    preloaded(gateway);
    for (let i = 0; i < 3; i++) {
      await expect(
        call('tools/call', { name: echo!.name, arguments: { message: 'hi' } }),
      ).resolves.toMatchObject({ content: [{ text: 'local: hi' }] });
    }
    await sleep(200);
    expect(linesOf(gateway, 'V8FLAGS ')).toEqual([]);
  });

  it('the documented start-time form runs: `node --interrupt-budget=8192 …/main.js app-server`', async () => {
    const { server, call } = await readyAppServer(['--interrupt-budget=8192']);
    expect(linesOf(server, 'EXECARGV ')[0]).toContain('"--interrupt-budget=8192"');
    await expect(call()).resolves.toMatchObject({ content: [{ type: 'text', text: 'local: hi' }] });
    expect(linesOf(server, 'V8FLAGS ')).toEqual([]);
  });
});
