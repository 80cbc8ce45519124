// ADR 0026: `mcprt app-server` and `mcprt serve` lower V8's tier-up budget right after their
// first tool call completes, never before it, and only once. The CLI runs under a preload that
// wraps `v8.setFlagsFromString` (the Node API the CLI calls) to report each call on stderr with
// the order of events around it; the servers, the runtime and the call are real.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
`,
  );
  return file;
}

const flagLines = (server: RawAppServer) =>
  server.stderr
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('V8FLAGS '));

const started: RawAppServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

function spawnCli(
  home: string,
  command: 'app-server' | 'serve',
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
) {
  const server = RawAppServer.spawn(
    NODE,
    [...nodeArgs, '--import', flagLogger(), CLI, '--home', home, command],
    { ...process.env, MCPRT_V8_INTERRUPT_BUDGET: '', ...env },
  );
  started.push(server);
  return server;
}

/** An app-server with a thread whose `echo` server is ready. */
async function readyAppServer(env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  const home = makeHome(echoServer('mcp_servers.echo', 'local'));
  const server = spawnCli(home, 'app-server', env, nodeArgs);
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

describe('V8 tier-up budget after the first tool call (ADR 0026)', () => {
  it('app-server: nothing before the first call, the budget once after it', async () => {
    const { server, call } = await readyAppServer();
    expect(flagLines(server)).toEqual([]);
    await expect(call()).resolves.toMatchObject({ content: [{ type: 'text', text: 'local: hi' }] });
    await expect.poll(() => flagLines(server)).toEqual(['V8FLAGS --interrupt-budget=8192']);
    await call();
    await call();
    expect(flagLines(server)).toEqual(['V8FLAGS --interrupt-budget=8192']);
  });

  it('MCPRT_V8_INTERRUPT_BUDGET chooses the budget, or V8’s own with `default`', async () => {
    const chosen = await readyAppServer({ MCPRT_V8_INTERRUPT_BUDGET: '20000' });
    const own = await readyAppServer({ MCPRT_V8_INTERRUPT_BUDGET: 'default' });
    await chosen.call();
    await own.call();
    await own.call();
    await expect.poll(() => flagLines(chosen.server)).toEqual(['V8FLAGS --interrupt-budget=20000']);
    expect(flagLines(own.server)).toEqual([]);
  });

  it('a budget given to node itself is left alone', async () => {
    const { server, call } = await readyAppServer({}, ['--interrupt-budget=50000']);
    await call();
    await call();
    expect(flagLines(server)).toEqual([]);
  });

  it('a value that is not a budget is a warning naming it; the default applies', async () => {
    const { server, call } = await readyAppServer({ MCPRT_V8_INTERRUPT_BUDGET: '12k' });
    expect(server.stderr.join('')).toContain(
      'warning: MCPRT_V8_INTERRUPT_BUDGET="12k" is not a budget (an integer from 1024 to 1000000, or "default"); using 8192',
    );
    await expect(call()).resolves.toMatchObject({ content: [{ text: 'local: hi' }] });
    await expect.poll(() => flagLines(server)).toEqual(['V8FLAGS --interrupt-budget=8192']);
  });

  it('serve: the gateway does the same after its first tool call', async () => {
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
    expect(flagLines(gateway)).toEqual([]);
    await expect(
      call('tools/call', { name: echo!.name, arguments: { message: 'hi' } }),
    ).resolves.toMatchObject({ content: [{ text: 'local: hi' }] });
    await expect.poll(() => flagLines(gateway)).toEqual(['V8FLAGS --interrupt-budget=8192']);
  });
});
