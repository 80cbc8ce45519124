// HTTP servers in an ssh environment are reached from the remote side: `http://127.0.0.1:PORT`
// is the remote host's loopback, and the TCP connection to the server is made by the remote
// sshd (checked through /proc: the connection's client end belongs to an sshd process, not to
// this process). Bearer tokens travel through the tunnel; an unreachable port fails alone.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HTTP_SERVER, NODE, tempDir, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';

const load = useRuntimes();
let sshd: Sshd;
let server: ChildProcess;
let port: number;

beforeAll(async () => {
  sshd = await Sshd.start([{ home: tempDir() }]);
  server = spawn(NODE, [HTTP_SERVER, '--token', 'tunnel-secret', '--name', 'remote-http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  port = await new Promise<number>((resolve) => {
    let seen = '';
    server.stdout!.on('data', (c: Buffer) => {
      seen += c.toString();
      const m = /PORT (\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
  });
});
afterAll(async () => {
  server.kill();
  await sshd.close();
});

/** Processes (comm) owning the client end of established TCP connections to 127.0.0.1:port. */
function clientsOf(target: number): string[] {
  const remote = `0100007F:${target.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[2] === remote && f[3] === '01' && f[9] !== undefined) inodes.add(f[9]);
  }
  const owners: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!)) {
        owners.push(`${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}:${pid}`);
      }
    }
  }
  return owners;
}

describe('HTTP servers in an ssh environment', () => {
  it('reaches 127.0.0.1 on the remote side through the connection, with the bearer token', async () => {
    const runtime = load(
      sshd.environmentToml('alpha', 0) +
        `[environments.alpha.mcp_servers.web]\nurl = "http://127.0.0.1:${port}/mcp"\nbearer_token_env_var = "WEB_TOKEN"\n`,
      { ...process.env, WEB_TOKEN: 'tunnel-secret' },
    );
    const logins = sshd.acceptedLogins();
    const session = runtime.startSession();
    const summary = await session.ready();
    expect(summary.failed).toEqual([]);
    expect(summary.ready).toEqual([{ environmentId: 'alpha', name: 'web' }]);
    const echo = await session.callTool({
      server: 'web',
      environmentId: 'alpha',
      tool: 'echo',
      arguments: { message: 'through ssh' },
    });
    expect(text(echo)).toBe('remote-http: through ssh');
    const headers = JSON.parse(
      text(await session.callTool({ server: 'web', environmentId: 'alpha', tool: 'headers' })),
    ) as Record<string, string>;
    expect(headers['authorization']).toBe('<present>');
    // The Host header is the configured one: only the socket underneath changed.
    expect(headers['host']).toBe(`127.0.0.1:${port}`);

    // Who is connected to the HTTP server right now: sshd, never this process.
    const owners = clientsOf(port);
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every((o) => o.startsWith('sshd:'))).toBe(true);
    expect(owners.some((o) => o.endsWith(`:${process.pid}`))).toBe(false);
    expect(sshd.acceptedLogins() - logins).toBe(1);
    const status = session.status('web', 'alpha');
    expect(status.httpOrigin).toBe(`http://127.0.0.1:${port}`);
    expect(JSON.stringify(status)).not.toContain('tunnel-secret');
  });

  it('fails an HTTP server whose remote port does not answer alone, naming the environment', async () => {
    const runtime = load(
      sshd.environmentToml('alpha', 0) +
        `[environments.alpha.mcp_servers.dead]\nurl = "http://127.0.0.1:1/mcp"\nstartup_timeout_sec = 10\n` +
        `[environments.alpha.mcp_servers.web]\nurl = "http://127.0.0.1:${port}/mcp"\nbearer_token_env_var = "WEB_TOKEN"\n`,
      { ...process.env, WEB_TOKEN: 'tunnel-secret' },
    );
    const session = runtime.startSession();
    const summary = await session.ready();
    expect(summary.ready).toEqual([{ environmentId: 'alpha', name: 'web' }]);
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.scope).toEqual({ environmentId: 'alpha', name: 'dead' });
    expect(summary.failed[0]!.error).toMatch(
      /^MCP client for `dead@alpha` failed to start: .*ssh environment `alpha` \(.*\) could not reach http:\/\/127\.0\.0\.1:1 from the remote side/,
    );
  });
});
