// The token store modes against a real Secret Service: a private D-Bus session bus with
// gnome-keyring (Debian `dbus-daemon`, `gnome-keyring`; npm test installs them). `keyring` stores
// the login in the keychain and writes no file; `auto` uses the keychain when it answers and
// otherwise falls back to the 0600 file, saying so exactly once; `keyring` without a Secret
// Service refuses with a message naming the setting.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { credentialStoreKey } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { KeyringCredentialStore } from '../../packages/runtime/src/auth/store/keyringStore.js';
import { makeHome, q, tempDir, waitFor } from '../helpers/fixtures.js';
import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { authorize } from '../fixtures/auth/browser.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { CliProcess } from './helpers.js';

const WARNING = 'the OS keyring is not available';

describe('credential store modes (real Secret Service)', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let bus: ChildProcess;
  let keyring: ChildProcess;
  let env: NodeJS.ProcessEnv;
  const previousBus = process.env['DBUS_SESSION_BUS_ADDRESS'];

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer(as, { name: 'docs' });
    const dir = tempDir('mcprt-dbus-');
    const address = `unix:path=${join(dir, 'bus')}`;
    // A session bus without service activation: touching it before gnome-keyring owns the
    // Secret Service name must fail, not start a second (locked) keyring daemon.
    writeFileSync(
      join(dir, 'bus.conf'),
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>${address}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>\n`,
    );
    bus = spawn('dbus-daemon', ['--nofork', `--config-file=${join(dir, 'bus.conf')}`], {
      stdio: 'ignore',
    });
    await waitFor(() => existsSync(join(dir, 'bus')), 10_000, 'the session bus');
    env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, XDG_RUNTIME_DIR: dir };
    keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
      env: { ...env, HOME: dir },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    keyring.stdin!.end('test-keyring-password');
    process.env['DBUS_SESSION_BUS_ADDRESS'] = address;
    // Ready once a write succeeds (the login collection is created after the unlock).
    const store = new KeyringCredentialStore();
    await waitFor(
      () => {
        try {
          store.set('mcprt-test-ready', { client: { client_id: 'x' } } as never);
          return store.delete('mcprt-test-ready');
        } catch {
          return false;
        }
      },
      15_000,
      'the Secret Service',
    );
  });

  afterAll(async () => {
    if (previousBus === undefined) delete process.env['DBUS_SESSION_BUS_ADDRESS'];
    else process.env['DBUS_SESSION_BUS_ADDRESS'] = previousBus;
    keyring?.kill();
    bus?.kill();
    await rs?.stop();
    await as?.stop();
  });

  async function login(home: string, cliEnv: NodeJS.ProcessEnv): Promise<CliProcess> {
    const cli = new CliProcess(home, ['mcp', 'login', 'docs'], cliEnv);
    const [url] = await cli.waitForOutput(/^http\S+$/m);
    await authorize(url, new URL(url).searchParams.get('redirect_uri')!, { deliver: true });
    await cli.exited;
    return cli;
  }

  const config = (mode: string) =>
    `mcp_oauth_credentials_store = ${q(mode)}\n[mcp_servers.docs]\nurl = ${q(rs.url)}\n`;

  it('keyring: the login lives in the keychain, no file is written, logout removes it', async () => {
    const home = makeHome(config('keyring'));
    const cli = await login(home, env);
    expect(cli.stdout).toContain("Successfully logged in to MCP server 'docs'.");
    expect(readdirSync(home)).not.toContain('.credentials.json');
    const key = credentialStoreKey({ environmentId: null, name: 'docs' }, rs.url);
    const stored = new KeyringCredentialStore().get(key);
    expect(stored?.server_url).toBe(rs.url);
    expect(rs.acceptedTokens).not.toContain(stored?.access_token); // not used yet

    const status = new CliProcess(home, ['status', '--json'], env);
    expect(await status.exited).toBe(0);
    const [entry] = JSON.parse(status.stdout) as Record<string, unknown>[];
    expect(entry).toMatchObject({ connectionStatus: 'connected', authStatus: 'oAuth' });
    expect(rs.acceptedTokens).toContain(stored?.access_token);

    const logout = new CliProcess(home, ['mcp', 'logout', 'docs'], env);
    expect(await logout.exited).toBe(0);
    expect(logout.stdout).toContain("Removed OAuth credentials for 'docs'.");
    expect(new KeyringCredentialStore().get(key)).toBeNull();
  });

  it('auto: uses the keychain when it answers, without a warning', async () => {
    const home = makeHome(config('auto'));
    const cli = await login(home, env);
    expect(cli.stderr).not.toContain(WARNING);
    expect(readdirSync(home)).not.toContain('.credentials.json');
    const key = credentialStoreKey({ environmentId: null, name: 'docs' }, rs.url);
    expect(new KeyringCredentialStore().get(key)).not.toBeNull();
    new KeyringCredentialStore().delete(key);
  });

  it('auto without a Secret Service: the 0600 file, and one warning', async () => {
    const home = makeHome(config('auto'));
    const noBus = { ...env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-bus')}` };
    const cli = await login(home, noBus);
    expect(cli.stdout).toContain("Successfully logged in to MCP server 'docs'.");
    expect(cli.stderr.split(WARNING).length - 1).toBe(1);
    expect(cli.stderr).toContain(
      `OAuth credentials are stored in ${join(home, '.credentials.json')}`,
    );
    expect(readdirSync(home)).toContain('.credentials.json');
  });

  it('keyring without a Secret Service: refused, naming the setting', async () => {
    const home = makeHome(config('keyring'));
    const noBus = { ...env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-bus')}` };
    const status = new CliProcess(home, ['mcp', 'login', 'docs'], noBus);
    const code = await Promise.race([
      status.exited,
      new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
    ]);
    expect(code).toBe(1);
    expect(status.stderr).toContain(
      'mcp_oauth_credentials_store = "keyring", but the keyring is not available:',
    );
    expect(readdirSync(home)).not.toContain('.credentials.json');
  });
});
