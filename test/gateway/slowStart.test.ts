/**
 * Issue 35: `mcprt serve`'s first `tools/list` waits for the registrations still starting — each
 * up to its own `startup_timeout_sec` — bounded by `[serve] startup_wait_sec`, instead of a fixed
 * 10 s: thirty servers that each take 3–6 s to start are all in the very first listing; a server
 * that never answers is not waited for past the bound, and stderr names it.
 */

import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { echoServer, FIXTURES, makeHome, SILENT_SERVER } from '../helpers/fixtures.js';
import type { GatewayClient } from './helpers.js';
import { stdioGateway, stdioServer } from './helpers.js';

const SLOW_SERVER = join(FIXTURES, 'slow-start-server.mjs');

let gateway: GatewayClient | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

describe('the first listing of mcprt serve', () => {
  it('waits for 30 servers that each start in 3–6 s', { timeout: 90_000 }, async () => {
    const names = Array.from({ length: 30 }, (_, i) => `slow${String(i).padStart(2, '0')}`);
    const home = makeHome(
      names
        .map(
          (name, i) =>
            stdioServer(`mcp_servers.${name}`, SLOW_SERVER, [
              '--name',
              name,
              '--delay-ms',
              String(3000 + ((i * 1033) % 3000)),
            ]) + 'startup_timeout_sec = 30\n',
        )
        .join(''),
    );
    gateway = await stdioGateway(home, 'legacy');
    const { tools } = await gateway.client.listTools();
    const listed = tools.map((t) => t.name);
    for (const name of names) expect(listed.some((t) => t.endsWith(`${name}_ping`))).toBe(true);
    expect(gateway.stderr()).not.toContain('stopped waiting');
  });

  it('stops waiting at [serve] startup_wait_sec and names who it did not wait for', async () => {
    const home = makeHome(
      '[serve]\nstartup_wait_sec = 1\n' +
        stdioServer('mcp_servers.silent', SILENT_SERVER) +
        'startup_timeout_sec = 2\n' +
        echoServer('mcp_servers.echo', 'echo'),
    );
    gateway = await stdioGateway(home, 'legacy');
    const started = Date.now();
    const { tools } = await gateway.client.listTools();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(1_900); // the bound, not the silent server's 2 s timeout
    expect(tools.map((t) => t.name)).toContain('echo__echo');
    expect(gateway.stderr()).toContain(
      'mcprt serve: warning: stopped waiting for MCP server `silent` (still starting after 1 s',
    );
    expect(gateway.stderr()).not.toContain('stopped waiting for MCP server `echo`');
  });
});
