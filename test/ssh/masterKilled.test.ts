// Debug probe (temporary).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';

import { echoServer, text, tempDir } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';
import { descendants } from '../helpers/sshd.js';
import { readFileSync } from 'node:fs';

const load = useRuntimes();
let sshd: Sshd;
beforeEach(async () => {
  sshd = await Sshd.start([{ home: tempDir() }]);
});
afterEach(async () => {
  await sshd.close();
});

const echo = async (session: Session, server: string) =>
  text(await session.callTool({ server, tool: 'echo', arguments: { message: 'ping' }, environmentId: 'remote' }));

describe('probe', () => {
  it('kills the master', async () => {
    const runtime = load(
      sshd.environmentToml('remote', 0, { cwd: '/' }) +
        echoServer('environments.remote.mcp_servers.one', 'one', 'restart_backoff_sec = 0.2') +
        echoServer('environments.remote.mcp_servers.two', 'two', 'restart_backoff_sec = 0.2'),
    );
    const session = runtime.startSession();
    await session.ready();
    expect(await echo(session, 'one')).toBe('one: ping');
    const masters = descendants(process.pid).filter((pid) => {
      try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ControlMaster=yes'); } catch { return false; }
    });
    console.error('masters', masters);
    const t0 = Date.now();
    process.kill(masters[0]!, 'SIGKILL');
    for (let i = 0; i < 60; i++) {
      for (const s of ['one', 'two']) {
        let out: string;
        try { out = await echo(session, s); } catch (e) { out = `throws ${(e as Error).message}`; }
        console.error(`+${Date.now() - t0} ${s}: ${out} | ${JSON.stringify(session.status(s, 'remote').connectionStatus)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});
