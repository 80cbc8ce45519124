/**
 * Finding 6 of issue #14: `mcprt app-server --listen ws://[::1]:0` serves on IPv6 loopback, and
 * every listen failure — a port in use, an address this machine does not have, a name that does
 * not resolve, a non-loopback host — is one clear line on stderr and exit code 1, never a crash
 * with a stack trace.
 */

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { Server } from 'node:net';

import { describe, expect, it } from 'vitest';

import { makeHome, NODE, REPO_ROOT } from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';
import { startWsAppServer, WsClient } from './helpers.js';

function appServer(home: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [CLI, '--home', home, 'app-server', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('app-server --listen', () => {
  it('serves on IPv6 loopback: ws://[::1]:0', async () => {
    const server = await startWsAppServer(makeHome(''), { listen: 'ws://[::1]:0' });
    try {
      expect(server.url).toMatch(/^ws:\/\/\[::1\]:\d+$/);
      const client = await WsClient.connect(server.url, server.token);
      expect(await client.call('environment/list', {})).toMatchObject({
        data: [{ environmentId: 'local' }],
      });
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('a port in use is one line and exit 1', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await appServer(makeHome(''), ['--listen', `ws://127.0.0.1:${port}`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `mcprt: cannot listen on ws://127.0.0.1:${port}: the address is already in use (EADDRINUSE)\n`,
      );
    } finally {
      busy.close();
    }
  });

  it('an address this machine does not have, or a name that does not resolve: one line, exit 1', async () => {
    const missing = await appServer(makeHome(''), [
      '--listen',
      'ws://192.0.2.1:0',
      '--allow-non-loopback',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'mcprt: cannot listen on ws://192.0.2.1:0: this machine has no such address (EADDRNOTAVAIL)\n',
    );
    const unresolved = await appServer(makeHome(''), [
      '--listen',
      'ws://no-such-host.invalid:0',
      '--allow-non-loopback',
    ]);
    expect(unresolved.code).toBe(1);
    expect(unresolved.stderr).toMatch(
      /^mcprt: cannot listen on ws:\/\/no-such-host\.invalid:0: the host name does not resolve \((ENOTFOUND|EAI_AGAIN)\)\n$/,
    );
    const remote = await appServer(makeHome(''), ['--listen', 'ws://[::2]:0']);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toBe(
      'mcprt: refusing to listen on non-loopback host ::2 (WebSocket listener is loopback-only)\n',
    );
  });
});
