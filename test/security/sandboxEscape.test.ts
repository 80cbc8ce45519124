/**
 * Finding 1 of issue #14, end to end: a host runs a thread under `readOnly` with network access;
 * the model's command (run by the example sandboxed-shell server through mcprt's own launcher, on
 * real bubblewrap) tries the whole escape — read the app-server token, the OAuth credentials,
 * the history and the config; connect to the WebSocket app-server; find the host's thread with
 * `history/list`; lift its sandbox to `dangerFullAccess`; reach the D-Bus session bus (the
 * keyring) — and fails at every step. The host's next command still runs sandboxed.
 */

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, makeHome, NODE, q, REPO_ROOT, tempDir } from '../helpers/fixtures.js';
import { assertBubblewrapWorks, EXAMPLE_SERVER, metaServer } from '../sandbox/helpers.js';
import type { WsAppServer } from './helpers.js';
import { startSessionBus, startWsAppServer, WsClient } from './helpers.js';

const ESCAPE = join(import.meta.dirname, 'fixtures/escape.mjs');
const CREDENTIAL_SECRET = 'oauth-refresh-token-that-must-stay-home';

interface RunReply {
  exitCode: number;
  stdout: string;
  stderr: string;
  sandboxed: boolean;
}
type Outcome = { ok: boolean; value?: unknown; error?: string };

/** Whether `path` is in `/tmp` or `$TMPDIR`, which `workspaceWrite` makes writable. */
const underTemp = (path: string): boolean =>
  ['/tmp', tmpdir()]
    .map((dir) => realpathSync(dir))
    .some((dir) => path === dir || path.startsWith(`${dir}/`));

describe('a sandboxed command cannot reach the host’s authority', () => {
  let server: WsAppServer;
  let host: WsClient;
  let bus: { path: string; stop(): void };
  let home: string;
  let threadId: string;
  const workspace = tempDir('mcprt-workspace-');
  // Not in a temporary directory (`/tmp`, `$TMPDIR`): `workspaceWrite` makes those writable. In
  // the repository, unless the repository itself is in one (a fresh clone under /tmp): then in
  // the home directory's cache.
  const outsideParent = underTemp(realpathSync(REPO_ROOT))
    ? join(homedir(), '.cache', 'mcprt-tests')
    : join(REPO_ROOT, '.tmp');
  mkdirSync(outsideParent, { recursive: true });
  const outside = realpathSync(mkdtempSync(join(outsideParent, 'outside-')));

  beforeAll(async () => {
    assertBubblewrapWorks();
    const runtimeDir = tempDir('mcprt-xdg-');
    bus = await startSessionBus(runtimeDir);
    home = makeHome(
      `[mcp_servers.shell]\ncommand = ${q(NODE)}\nargs = ${arr([EXAMPLE_SERVER])}\n` +
        metaServer('mcp_servers.meta', 'current'),
    );
    writeFileSync(
      join(home, '.credentials.json'),
      JSON.stringify({ docs: { tokens: { refresh_token: CREDENTIAL_SECRET } } }),
      { mode: 0o600 },
    );
    server = await startWsAppServer(home, {
      env: {
        ...process.env,
        XDG_RUNTIME_DIR: runtimeDir,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${bus.path}`,
      },
    });
    host = await WsClient.connect(server.url, server.token);
    threadId = (
      await host.call<{ thread: { id: string } }>('thread/start', {
        sandboxState: {
          sandboxPolicy: { type: 'readOnly', networkAccess: true },
          sandboxCwd: workspace,
        },
      })
    ).thread.id;
  });
  afterAll(async () => {
    await host?.close();
    await server?.stop();
    bus?.stop();
    rmSync(outside, { recursive: true, force: true });
  });

  const run = async (command: string, args: string[]) => {
    const result = await host.call<{ structuredContent: RunReply; isError?: boolean }>(
      'mcpServer/tool/call',
      { threadId, server: 'shell', tool: 'run', arguments: { command, args } },
    );
    expect(result.isError, JSON.stringify(result)).toBeUndefined();
    return result.structuredContent;
  };

  it('fails at every step of the escape, and the next command still runs sandboxed', async () => {
    // The host's own first command: the thread is now in the history.
    expect(await run('true', [])).toMatchObject({ exitCode: 0, sandboxed: true });

    const escape = await run(NODE, [ESCAPE, home, server.url, bus.path]);
    expect(escape.exitCode, escape.stderr).toBe(0);
    const steps = JSON.parse(escape.stdout) as Record<string, Outcome>;
    expect(Object.keys(steps)).toEqual([
      'readToken',
      'readCredentials',
      'readHistory',
      'readConfig',
      'listHome',
      'connect',
      'historyList',
      'update',
      'sessionBus',
    ]);
    for (const [step, outcome] of Object.entries(steps)) {
      if (step === 'listHome') continue;
      expect(outcome.ok, `${step}: ${JSON.stringify(outcome)}`).toBe(false);
    }
    // The home is there, but empty and unreadable (an empty mode-0000 directory).
    const listing = steps['listHome']!;
    expect(listing.ok ? listing.value : []).toEqual([]);
    expect(steps['connect']).toEqual({ ok: false, error: 'HTTP 401' });
    expect(escape.stdout).not.toContain(server.token);
    expect(escape.stdout).not.toContain(CREDENTIAL_SECRET);

    // The host's next command runs under the thread's own state: no write outside the workspace.
    const touched = join(outside, 'escaped');
    const next = await run('sh', ['-c', `touch ${touched}`]);
    expect(next.exitCode).not.toBe(0);
    expect(next.sandboxed).toBe(true);
    expect(existsSync(touched)).toBe(false);
  });

  it('cannot replace the launcher, even where the temporary directory is writable', async () => {
    const meta = await host.call<{ content: { text: string }[] }>('mcpServer/tool/call', {
      threadId,
      server: 'meta',
      tool: 'meta',
    });
    const launcher = (
      JSON.parse(meta.content[0]!.text) as {
        params: { _meta: { 'codex/sandbox-launcher': { codexExecutable: string } } };
      }
    ).params._meta['codex/sandbox-launcher'].codexExecutable;
    const before = readFileSync(launcher, 'utf8');
    await host.call('thread/sandboxState/update', {
      threadId,
      sandboxState: {
        sandboxPolicy: { type: 'workspaceWrite', networkAccess: true },
        sandboxCwd: workspace,
      },
    });
    const tamper = await run('sh', [
      '-c',
      `printf '#!/bin/sh\\ntouch ${join(outside, 'owned')}\\n' > ${launcher}; echo $?`,
    ]);
    expect(tamper.sandboxed).toBe(true);
    expect(tamper.stdout.trim()).not.toBe('0');
    expect(readFileSync(launcher, 'utf8')).toBe(before);
    // The launcher still works and still sandboxes.
    const next = await run('sh', ['-c', `touch ${join(outside, 'owned')}`]);
    expect(next.exitCode).not.toBe(0);
    expect(existsSync(join(outside, 'owned'))).toBe(false);
  });
});
