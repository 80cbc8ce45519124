/**
 * A config that lists `mcprt serve` on itself: the gateway starts a copy of itself as a server,
 * which would start another, without end. Each gateway names its config in `MCPRT_SERVE_CHAIN`
 * (passed to local stdio servers), and a gateway started under a gateway of its own config exits
 * 1 at once with a message naming the file; the outer gateway reports that server as failed and
 * keeps serving the others. A gateway under a gateway of a different config starts as usual.
 */

import { execFileSync, spawn } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { arr, echoServer, makeHome, NODE, q, tempDir, waitFor } from '../helpers/fixtures.js';
import type { GatewayClient } from './helpers.js';
import { CLI, stdioGateway, texts } from './helpers.js';

/** The running `mcprt --home HOME serve` processes (their command lines name the home). */
function gatewaysOf(home: string): number {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(`--home ${home} serve`)).length;
}

/** Run `mcprt --home HOME serve` with `chain` as MCPRT_SERVE_CHAIN; its exit code and stderr. */
function serveUnder(
  home: string,
  chain: string,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [CLI, '--home', home, 'serve'], {
      env: { ...process.env, MCPRT_SERVE_CHAIN: chain },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

let home: string;
let gateway: GatewayClient;

beforeAll(async () => {
  home = makeHome('');
  // The config serves an echo server and the gateway itself (same home, same config).
  const config =
    echoServer('mcp_servers.echo', 'echo') +
    `[mcp_servers.self]\ncommand = ${q(NODE)}\nargs = ${arr([CLI, '--home', home, 'serve'])}\n`;
  writeFileSync(join(home, 'config.toml'), config);
  gateway = await stdioGateway(home, 'legacy');
});
afterAll(async () => {
  await gateway?.close();
});

describe('a gateway whose config lists itself', () => {
  it('does not start itself again: the copy exits, the other servers are served', async () => {
    await waitFor(
      () => /MCP server `self[^`]*` failed/.test(gateway.stderr()),
      20_000,
      'the self-registration to fail',
    );
    expect(gateway.stderr()).toContain(
      `serve: not starting: this process was started by a gateway serving the same config (${join(home, 'config.toml')})`,
    );
    const { tools } = await gateway.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.some((n) => n.startsWith('echo'))).toBe(true);
    expect(names.filter((n) => n.startsWith('self'))).toEqual([]);
    const echo = names.find((n) => n.startsWith('echo'))!;
    const result = await gateway.client.callTool({ name: echo, arguments: { message: 'hi' } });
    expect(texts(result)).toEqual(['echo: hi']);
    // Only the gateway the test started runs: no copy stayed, none is starting another.
    expect(gatewaysOf(home)).toBe(1);
  });

  it('refuses to run under a gateway of the same config: exit 1, the file named, nothing on stdout', async () => {
    const file = join(home, 'config.toml');
    const run = await serveUnder(home, JSON.stringify(['/elsewhere/config.toml', file]));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`mcprt: serve: not starting`);
    expect(run.stderr).toContain(`Remove that server from ${file}.`);
    expect(run.stdout).toBe('');
  });

  it('knows its config through a symlinked home: the same file, refused the same way', async () => {
    const link = join(tempDir('mcprt-selfloop-'), 'home-link');
    symlinkSync(home, link);
    // A gateway of the config as `home` names it, then one started with `--home <link>`.
    const run = await serveUnder(link, JSON.stringify([join(home, 'config.toml')]));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`serving the same config (${join(link, 'config.toml')})`);
    expect(run.stdout).toBe('');
  });

  it('starts under a gateway of another config (chained gateways stay possible)', async () => {
    const client = new Client({ name: 'chain-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: NODE,
      args: [CLI, '--home', home, 'serve'],
      env: { ...process.env, MCPRT_SERVE_CHAIN: JSON.stringify(['/elsewhere/config.toml']) },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).some((n) => n.startsWith('echo'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
