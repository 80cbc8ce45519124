/**
 * The example server (examples/sandboxed-shell-server) through the app-server, with mcprt's own
 * launcher and real bubblewrap: its long-lived worker is bound to the authority that created it,
 * so when the thread's state changes between two calls the worker is rejected and rebuilt and
 * the second call runs under the new state. Without a launcher it fails closed.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, isAlive, makeHome, NODE, q, tempDir, waitFor } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { assertBubblewrapWorks, EXAMPLE_SERVER } from './helpers.js';

interface ShellReply {
  exitCode: number;
  output: string;
  workerPid: number;
  generation: number;
  replaced: boolean;
  sandboxed: boolean;
}

const readOnly = (dir: string) => ({ sandboxPolicy: { type: 'readOnly' }, sandboxCwd: dir });
const writable = (dir: string) => ({
  sandboxPolicy: {
    type: 'workspaceWrite',
    writableRoots: [dir],
    excludeSlashTmp: true,
    excludeTmpdirEnvVar: true,
  },
  sandboxCwd: dir,
});

function example(table: string, extraArgs: string[] = []): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([EXAMPLE_SERVER, ...extraArgs])}\n`;
}

describe('example sandboxed shell server', () => {
  let server: RawAppServer;

  beforeAll(async () => {
    assertBubblewrapWorks();
    server = RawAppServer.start(
      makeHome(example('mcp_servers.shell') + example('mcp_servers.open', ['--allow-unsandboxed'])),
    );
    await server.initialize();
  });
  afterAll(async () => {
    await server.close();
  });

  async function thread(sandboxState?: unknown): Promise<string> {
    const result = await server.call<{ thread: { id: string } }>('thread/start', {
      ephemeral: true,
      ...(sandboxState === undefined ? {} : { sandboxState }),
    });
    return result.thread.id;
  }

  async function tool(
    threadId: string,
    name: string,
    args: Record<string, unknown>,
    srv = 'shell',
  ) {
    return server.call<{ structuredContent: Record<string, unknown>; isError?: boolean }>(
      'mcpServer/tool/call',
      { threadId, server: srv, tool: name, arguments: args },
    );
  }

  const shell = async (threadId: string, script: string) => {
    const result = await tool(threadId, 'shell', { script });
    expect(result.isError, JSON.stringify(result)).toBeUndefined();
    return result.structuredContent as unknown as ShellReply;
  };

  it('a state change between two calls rejects and rebuilds the worker; the second call runs under the new state', async () => {
    const dir = tempDir('mcprt-example-');
    const threadId = await thread(readOnly(dir));

    const first = await shell(threadId, 'pwd; touch first 2>/dev/null; echo touch=$?');
    expect(first).toMatchObject({ exitCode: 0, replaced: false });
    expect(first.output).toBe(`${dir}\ntouch=1\n`);
    expect(first.sandboxed).toBe(true);
    expect(existsSync(join(dir, 'first'))).toBe(false);

    const again = await shell(threadId, 'echo same');
    expect(again).toMatchObject({ workerPid: first.workerPid, replaced: false, output: 'same\n' });

    expect(
      await server.call('thread/sandboxState/update', { threadId, sandboxState: writable(dir) }),
    ).toEqual({});
    const second = await shell(threadId, 'touch second && echo wrote');
    expect(second.replaced).toBe(true);
    expect(second.workerPid).not.toBe(first.workerPid);
    expect(second.generation).toBe(first.generation + 1);
    expect(second.output).toBe('wrote\n');
    expect(existsSync(join(dir, 'second'))).toBe(true);
    await waitFor(() => !isAlive(first.workerPid), 10_000, 'the rejected worker to exit');
  });

  it('one-shot commands run under the state of their own call', async () => {
    const dir = tempDir('mcprt-example-');
    const threadId = await thread(writable(dir));
    const wrote = await tool(threadId, 'run', { command: 'sh', args: ['-c', 'touch one'] });
    expect(wrote.structuredContent).toMatchObject({ exitCode: 0, sandboxed: true });
    expect(existsSync(join(dir, 'one'))).toBe(true);

    await server.call('thread/sandboxState/update', { threadId, sandboxState: readOnly(dir) });
    const refused = await tool(threadId, 'run', { command: 'sh', args: ['-c', 'touch two'] });
    expect(refused.structuredContent['exitCode']).not.toBe(0);
    expect(existsSync(join(dir, 'two'))).toBe(false);
  });

  it('fails closed without sandbox authority, unless the operator opted out', async () => {
    const threadId = await thread();
    const refused = await tool(threadId, 'run', { command: 'true' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({
      error:
        'refusing to run a command: the host sent no sandbox state (codex/sandbox-state) with this call',
      code: 'sandbox_launcher_required',
    });
    const shellRefused = await tool(threadId, 'shell', { script: 'echo hi' });
    expect(shellRefused.isError).toBe(true);

    const open = await tool(
      threadId,
      'run',
      { command: 'sh', args: ['-c', 'echo direct'] },
      'open',
    );
    expect(open.structuredContent).toMatchObject({
      exitCode: 0,
      stdout: 'direct\n',
      sandboxed: false,
    });
  });
});
