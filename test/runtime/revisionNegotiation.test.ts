// Negotiating the protocol revision per registration scope, with real fixture processes
// (docs/adr/0018-revision-probe.md): a refused revision is reported as what it is (stdio and
// HTTP, both directions) while the other servers stay ready; a stdio server that exits on the
// `server/discover` probe is respawned once with the 2025 handshake; a restart reuses the
// scope's remembered revision (no probe; a fresh discover result adopted without a round trip)
// and falls back to a fresh probe when the server changed.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';

import { arr, echoServer, FIXTURES, NODE, q, tempDir, text, waitFor } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const STRICT = join(FIXTURES, 'strict-init-server.mjs');
const SWITCH = join(FIXTURES, 'switch-server.mjs');
const CODEX_HTTP = join(FIXTURES, 'codex-echo-http.mjs');

const load = useRuntimes();

function stdio(name: string, args: readonly string[], version = 'auto', extra = ''): string {
  const table = name.includes('.') ? name : `mcp_servers.${name}`;
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr(args)}\nprotocol_version = ${q(version)}\nstartup_timeout_sec = 10\nrestart_backoff_sec = 0.05\n${extra}\n`;
}

async function listen(script: string, args: readonly string[]): Promise<[ChildProcess, string]> {
  const child = spawn(NODE, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    }),
  );
  return [child, `http://127.0.0.1:${port}/mcp`];
}

/** Requests of each method the fixture process behind `server` has received. */
async function calls(session: Session, server: string): Promise<Record<string, number>> {
  return JSON.parse(text(await session.callTool({ server, tool: 'calls' })));
}

describe('a refused protocol revision is reported as such', () => {
  let modernHttp: ChildProcess;
  let legacyHttp: ChildProcess;
  let modernUrl: string;
  let legacyUrl: string;

  beforeAll(async () => {
    [modernHttp, modernUrl] = await listen(MODERN, ['--transport', 'http']);
    [legacyHttp, legacyUrl] = await listen(CODEX_HTTP, ['A']);
  });
  afterAll(() => {
    modernHttp?.kill();
    legacyHttp?.kill();
  });

  it('names the revisions, the server and its environment; the other servers stay ready', async () => {
    const http = (name: string, url: string, version: string) =>
      `[mcp_servers.${name}]\nurl = ${q(url)}\nprotocol_version = ${q(version)}\nstartup_timeout_sec = 10\n`;
    const cwd = tempDir();
    const runtime = load(
      [
        stdio('modern', [MODERN, '--name', 'modern'], '2025-11-25'),
        http('webmodern', modernUrl, '2025-11-25'),
        echoServer('mcp_servers.old', 'old', 'protocol_version = "2026-07-28"'),
        http('webold', legacyUrl, '2026-07-28'),
        echoServer('mcp_servers.fine', 'fine'),
        `[environments.box]\ntype = "exec"\nprogram = "sh"\nargs = ["-c", "exec \\"$@\\"", "sh"]\ncwd = ${q(cwd)}\n`,
        stdio('environments.box.mcp_servers.boxed', [MODERN, '--name', 'boxed'], '2025-11-25'),
      ].join('\n'),
    );
    const session = runtime.startSession({ environments: [{ environmentId: 'box', cwd }] });
    await session.ready();
    const error = (name: string, env?: string) => session.status(name, env).error;
    const refused = (where: string) =>
      `server refused protocol revision 2025-11-25; it supports 2026-07-28 (set protocol_version = "auto" or "2026-07-28" for ${where})`;
    expect(error('modern')).toBe(
      `MCP client for \`modern\` failed to start: ${refused('modern@local')}`,
    );
    expect(error('webmodern')).toBe(
      `MCP client for \`webmodern\` failed to start: ${refused('webmodern@local')}`,
    );
    expect(error('boxed', 'box')).toBe(
      `MCP client for \`boxed@box\` failed to start: ${refused('boxed@box')}`,
    );
    const silent = (where: string, how: string) =>
      `server does not speak 2026-07-28 (${how}; set protocol_version = "auto" or "2025-11-25" for ${where})`;
    expect(error('old')).toBe(
      `MCP client for \`old\` failed to start: ${silent('old@local', 'its server/discover did not offer it')}`,
    );
    expect(error('webold')).toBe(
      `MCP client for \`webold\` failed to start: ${silent('webold@local', 'its server/discover did not offer it')}`,
    );
    for (const name of ['modern', 'webmodern', 'old', 'webold'])
      expect(session.status(name).failureKind, name).toBe('protocol_version');
    expect(session.status('boxed', 'box').failureKind).toBe('protocol_version');
    expect(session.status('fine').connectionStatus).toBe('connected');
    const result = await session.callTool({
      server: 'fine',
      tool: 'echo',
      arguments: { message: 'still here' },
    });
    expect(text(result)).toBe('fine: still here');
  });

  it('a 2025-only server that exits on the probe is pinned to 2026: says so', async () => {
    const runtime = load(stdio('strict', [STRICT], '2026-07-28'));
    const session = runtime.startSession();
    await session.ready();
    expect(session.status('strict').error).toBe(
      'MCP client for `strict` failed to start: server does not speak 2026-07-28 (it closed the connection on the server/discover probe; set protocol_version = "auto" or "2025-11-25" for strict@local)',
    );
  });
});

describe('the revision each scope negotiated', () => {
  it('respawns a stdio server that exited on the probe once, with the 2025 handshake, and remembers it', async () => {
    const log = join(tempDir(), 'pids.log');
    const runtime = load(stdio('strict', [STRICT, '--pid-log', log]));
    const session = runtime.startSession();
    await session.ready();
    const status = session.status('strict');
    expect(status.connectionStatus).toBe('connected');
    expect(status.protocolVersion).toBe('2025-11-25');
    const firsts = () =>
      readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[1]);
    expect(firsts()).toEqual(['server/discover', 'initialize']);
    const result = await session.callTool({
      server: 'strict',
      tool: 'echo',
      arguments: { message: 'x' },
    });
    expect(text(result)).toBe('strict: x');

    // A restart uses the remembered 2025 verdict: no probe, one process.
    process.kill(status.pid!, 'SIGKILL');
    await waitFor(
      () =>
        session.status('strict').restartCount === 1 &&
        session.status('strict').connectionStatus === 'connected',
      30_000,
      'the restart',
    );
    expect(firsts()).toEqual(['server/discover', 'initialize', 'initialize']);
    // A second session of the same runtime starts it without probing either.
    const other = runtime.startSession();
    await other.ready();
    expect(other.status('strict').connectionStatus).toBe('connected');
    expect(firsts()).toEqual(['server/discover', 'initialize', 'initialize', 'initialize']);
  });

  it('adopts a fresh discover result on restart (no probe) and re-reads a stale one', async () => {
    const runtime = load(
      stdio('fresh', [MODERN, '--name', 'fresh', '--ttl-ms', '600000']) +
        stdio('stale', [MODERN, '--name', 'stale']),
    );
    const session = runtime.startSession();
    await session.ready();
    for (const name of ['fresh', 'stale']) {
      expect((await calls(session, name))['server/discover'], name).toBe(1);
      const pid = session.status(name).pid!;
      process.kill(pid, 'SIGKILL');
      await waitFor(
        () =>
          session.status(name).restartCount === 1 &&
          session.status(name).connectionStatus === 'connected',
        30_000,
        `${name} restarted`,
      );
      expect(session.status(name).protocolVersion).toBe('2026-07-28');
    }
    // The fresh verdict is adopted without a round trip; the stale one (ttlMs 0) asks again.
    expect((await calls(session, 'fresh'))['server/discover']).toBeUndefined();
    expect((await calls(session, 'stale'))['server/discover']).toBe(1);
    const echoed = await session.callTool({
      server: 'fresh',
      tool: 'echo',
      arguments: { message: 'hi' },
    });
    expect(text(echoed)).toBe('fresh: hi');
  });

  for (const ttl of ['600000', '0']) {
    it(`probes afresh when a remembered revision is refused (upgrade; downgrade with ttl ${ttl})`, async () => {
      const dir = tempDir();
      const mode = join(dir, 'mode');
      writeFileSync(mode, 'legacy');
      const runtime = load(stdio('moving', [SWITCH, mode, '--name', 'moving', '--ttl-ms', ttl]));
      const session = runtime.startSession();
      await session.ready();
      expect(session.status('moving').protocolVersion).toBe('2025-11-25');

      // Upgraded to a 2026-only server: the remembered 2025 handshake is refused, then probed.
      writeFileSync(mode, 'modern');
      process.kill(session.status('moving').pid!, 'SIGKILL');
      await waitFor(
        () =>
          session.status('moving').protocolVersion === '2026-07-28' &&
          session.status('moving').connectionStatus === 'connected',
        30_000,
        'the upgraded server',
      );
      // One restart: the refusal was followed by a fresh probe inside it, not by another restart.
      expect(session.status('moving').restartCount).toBe(1);

      // Downgraded again: the remembered 2026 verdict (adopted or pinned) fails, then probed.
      writeFileSync(mode, 'legacy');
      process.kill(session.status('moving').pid!, 'SIGKILL');
      await waitFor(
        () =>
          session.status('moving').protocolVersion === '2025-11-25' &&
          session.status('moving').connectionStatus === 'connected',
        30_000,
        'the downgraded server',
      );
      const result = await session.callTool({
        server: 'moving',
        tool: 'echo',
        arguments: { message: 'ok' },
      });
      expect(text(result)).toBe('moving: ok');
    });
  }
});
