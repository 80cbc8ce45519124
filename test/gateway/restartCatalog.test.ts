/**
 * `mcprt serve` while a crashed server restarts (docs/supervision.md, docs/gateway.md): its tools
 * (and its resources and prompts) stay listed and callable — a call waits for the restart and succeeds, or, past
 * `restart_wait_sec` or once the restart failed for good, is a tool error naming `server@env` —
 * no `tools/list_changed` ever lists it without them, and every such call has exactly one
 * history record. Over stdio in both eras (the fast path of each), against real fault servers in
 * the local environment and in an exec environment.
 */

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  arr,
  FAULT_SERVER,
  makeHome,
  NODE,
  shExecEnvironment,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import type { Era, GatewayClient } from './helpers.js';
import { CLI, stdioGateway, stdioServer, texts } from './helpers.js';

/** A fault server whose every start after the first exits during initialize. */
function startsOnce(table: string, name: string, extra: string): string {
  const marker = join(tempDir('mcprt-once-'), 'started');
  const script =
    'if [ -e "$1" ]; then exec "$2" "$3" --name "$4" --exit-during-init; fi; : > "$1"; exec "$2" "$3" --name "$4"';
  return `[${table}]\ncommand = "sh"\nargs = ${arr(['-c', script, 'sh', marker, NODE, FAULT_SERVER, name])}\n${extra}\n`;
}

function home(): string {
  return makeHome(
    stdioServer('mcp_servers.flaky', FAULT_SERVER, ['--name', 'flaky', '--resources']) +
      'restart_backoff_sec = 3\nrestart_wait_sec = 10\n' +
      shExecEnvironment('a', tempDir('mcprt-gw-restart-cwd-')) +
      stdioServer('environments.a.mcp_servers.slow', FAULT_SERVER, ['--name', 'slow']) +
      'restart_backoff_sec = 30\nrestart_wait_sec = 0.5\n' +
      startsOnce(
        'environments.a.mcp_servers.doomed',
        'doomed',
        'restart_max_attempts = 1\nrestart_backoff_sec = 0.5\nrestart_wait_sec = 10',
      ),
  );
}

interface StatusEntry {
  label: string;
  connectionStatus: string;
}

interface HistoryRecord {
  server: string;
  environmentId: string | null;
  tool: string;
  arguments: { nonce?: string } | null;
  status: string;
  error: string | null;
}

describe.each<Era>(['legacy', 'auto'])('a restarting server behind mcprt serve, %s era', (era) => {
  const dir = home();
  const toolLists: string[][] = [];
  let gateway: GatewayClient;

  const names = async () => (await gateway.client.listTools()).tools.map((t) => t.name);
  const call = (name: string, args: Record<string, unknown>) =>
    gateway.client.callTool({ name, arguments: args });
  /** The connection status of `label` in the gateway's status resource. */
  const status = async (label: string) => {
    const read = await gateway.client.readResource({ uri: 'mcprt://gateway/status' });
    const doc = JSON.parse((read.contents[0] as { text: string }).text) as {
      servers: StatusEntry[];
    };
    return doc.servers.find((s) => s.label === label)!.connectionStatus;
  };
  /** Until `label` is restarting (its crash noticed). */
  const restarting = async (label: string) => {
    for (let tries = 0; (await status(label)) !== 'starting'; tries++) {
      expect(tries, `${label} restarting`).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeAll(async () => {
    gateway = await stdioGateway(dir, era, [], { onToolsChanged: (n) => toolLists.push(n) });
    expect(await names()).toEqual(
      expect.arrayContaining(['flaky__echo', 'a__slow__echo', 'a__doomed__echo']),
    );
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('keeps the tools listed and a call waits for the restart, then succeeds', async () => {
    const listedBefore = (await gateway.client.listResources()).resources;
    expect(listedBefore.map((r) => r.title)).toContain('note (flaky)');
    expect((await gateway.client.listPrompts()).prompts.map((p) => p.name)).toContain(
      'flaky__greet',
    );
    const crashed = await call('flaky__act', { nonce: 'crash', fault: 'crash' });
    expect(crashed.isError).toBe(true);
    expect(texts(crashed)[0]).toContain('MCP server `flaky` failed: the server stopped');
    await restarting('flaky');
    expect(await names()).toContain('flaky__echo');
    // Its resources and prompts stay listed with its tools (what its server last listed)…
    const note = (await gateway.client.listResources()).resources.find(
      (r) => r.title === 'note (flaky)',
    );
    expect(note).toEqual(listedBefore.find((r) => r.title === 'note (flaky)'));
    const prompts = (await gateway.client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toContain('flaky__greet');
    expect(await status('flaky')).toBe('starting');
    const t0 = Date.now();
    // …and a read of one waits for the restart, as a call does.
    const [during, read] = await Promise.all([
      call('flaky__echo', { nonce: `during-${era}` }),
      gateway.client.readResource({ uri: note!.uri }),
    ]);
    expect((read.contents[0] as { text: string }).text).toMatch(/^flaky note \(pid \d+\)$/);
    expect(during.isError).toBeFalsy();
    expect(JSON.parse(texts(during)[0]!)).toEqual({ nonce: `during-${era}`, server: 'flaky' });
    expect(Date.now() - t0).toBeGreaterThan(300);
    expect(await status('flaky')).toBe('connected');
    // Told once it is back; never a list without its tools.
    await waitFor(() => toolLists.length > 0 || undefined, 5000, 'list_changed after restart');
    for (const list of toolLists) expect(list).toContain('flaky__echo');
  });

  it('past restart_wait_sec, a call is a tool error naming server@env; the tools stay', async () => {
    await call('a__slow__act', { nonce: 'crash', fault: 'crash' });
    await restarting('slow@a');
    const t0 = Date.now();
    const late = await call('a__slow__echo', { nonce: `slow-${era}` });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(late.isError).toBe(true);
    expect(texts(late)[0]).toMatch(
      /^MCP server `slow@a` is not available: it is restarting: MCP server `slow@a` stopped: server process exited with code 4; restarting \(attempt 1 of 5\) in \d+ ms$/,
    );
    expect(await names()).toContain('a__slow__echo');
    for (const list of toolLists) expect(list).toContain('a__slow__echo');
  });

  it('a restart that fails for good fails the waiting call; then the tools are gone', async () => {
    await call('a__doomed__act', { nonce: 'crash', fault: 'crash' });
    await restarting('doomed@a');
    const failed = await call('a__doomed__echo', { nonce: `doomed-${era}` });
    expect(failed.isError).toBe(true);
    expect(texts(failed)[0]).toMatch(
      /^MCP server `doomed@a` is not available: MCP client for `doomed@a` failed to start: server process exited with code 2 during initialize.*\(gave up after 1 restart\)$/,
    );
    expect(await names()).not.toContain('a__doomed__echo');
  });

  it('records every call it answered, exactly once', async () => {
    const history = JSON.parse(
      execFileSync(NODE, [CLI, '--home', dir, 'history', '--json', '--limit', '100'], {
        encoding: 'utf8',
      }),
    ) as { data: HistoryRecord[] };
    const one = (nonce: string) => {
      const found = history.data.filter((r) => r.arguments?.nonce === nonce);
      expect(found, nonce).toHaveLength(1);
      return found[0]!;
    };
    expect(one(`during-${era}`)).toMatchObject({ server: 'flaky', status: 'completed' });
    expect(one(`slow-${era}`)).toMatchObject({
      server: 'slow',
      environmentId: 'a',
      tool: 'echo',
      status: 'failed',
      error: expect.stringMatching(/^MCP server `slow@a` is not available: it is restarting/),
    });
    expect(one(`doomed-${era}`)).toMatchObject({
      server: 'doomed',
      environmentId: 'a',
      status: 'failed',
      error: expect.stringMatching(/^MCP server `doomed@a` is not available: /),
    });
    // Three crash calls, three calls above.
    expect(history.data).toHaveLength(6);
  });
});
