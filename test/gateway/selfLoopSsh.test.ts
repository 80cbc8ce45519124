/**
 * The gateway self-loop guard across ssh (issue #33, finding 6). A config lists `mcprt serve` on
 * itself as a server of an ssh environment. Through a real sshd on 127.0.0.1 that gateway runs on
 * this same machine with this same config: a real loop, which `MCPRT_SERVE_CHAIN` — forwarded
 * into the ssh environment, each entry a host label and a config path — must stop with the clear
 * error. The same command through a second sshd port whose sessions carry another host label
 * (`MCPRT_HOST_ID`, set by sshd for that port: the test's stand-in for another machine with a
 * config at the same path) is no loop and must start and serve.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, echoServer, makeHome, NODE, q, tempDir, waitFor } from '../helpers/fixtures.js';
import { Sshd } from '../helpers/sshd.js';
import type { GatewayClient } from './helpers.js';
import { CLI, stdioGateway, texts } from './helpers.js';

let sshd: Sshd;
let home: string;
let gateway: GatewayClient;

beforeAll(async () => {
  sshd = await Sshd.start([
    { home: tempDir('mcprt-loop-same-') },
    { home: tempDir('mcprt-loop-other-'), env: { MCPRT_HOST_ID: 'another-machine' } },
  ]);
  home = makeHome('');
  const self = (env: string) =>
    `[environments.${env}.mcp_servers.gw]\ncommand = ${q(NODE)}\n` +
    `args = ${arr([CLI, '--home', home, 'serve'])}\nstartup_timeout_sec = 30\n`;
  writeFileSync(
    join(home, 'config.toml'),
    echoServer('mcp_servers.echo', 'echo') +
      sshd.environmentToml('same', 0) +
      self('same') +
      sshd.environmentToml('other', 1) +
      self('other'),
  );
  gateway = await stdioGateway(home, 'legacy');
});
afterAll(async () => {
  await gateway?.close();
  await sshd?.close();
});

describe('a gateway whose config lists itself in an ssh environment', () => {
  it('refuses the copy reached over ssh on this same host, naming the config', async () => {
    await waitFor(
      () => /MCP server `gw@same` failed/.test(gateway.stderr()),
      30_000,
      'the same-host copy to fail',
    );
    const line = gateway
      .stderr()
      .split('\n')
      .find((l) => l.includes('`gw@same` failed'));
    expect(line).toContain(
      `serve: not starting: this process was started by a gateway serving the same config (${join(home, 'config.toml')}) on this host`,
    );
  });

  it('starts the copy on a host labelled otherwise, and serves through it', async () => {
    const names = async () => (await gateway.client.listTools()).tools.map((t) => t.name);
    const isOther = (n: string) => n.includes('other') && n.includes('echo');
    const deadline = Date.now() + 30_000;
    while (!(await names()).some(isOther) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(gateway.stderr()).not.toMatch(/`gw@other` failed/);
    const tool = (await names()).find(isOther);
    expect(tool).toBeDefined();
    const result = await gateway.client.callTool({ name: tool!, arguments: { message: 'hi' } });
    expect(texts(result)).toEqual(['echo: hi']);
    // That gateway refused its own copies in turn (same host label and config above it).
    expect(
      (await names()).filter((n) => n.includes('same') || n.startsWith('other__gw__other')),
    ).toEqual([]);
  });
});
