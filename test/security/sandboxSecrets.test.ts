/**
 * `mcprt sandbox` (real bubblewrap) hides mcprt's secrets whatever the state grants: the mcprt
 * home stays unreadable and unwritable even when a profile names it readable or writable, the
 * paths a runtime registers through `$MCPRT_SANDBOX_PROTECT_FILE` are hidden too, a list that
 * cannot be read refuses the command (exit 125), and only `dangerFullAccess` runs as is.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { tempDir } from '../helpers/fixtures.js';
import { assertBubblewrapWorks, runSandbox } from '../sandbox/helpers.js';

const TOKEN = 'app-server-token-value-0123456789';

function setUp() {
  const home = tempDir('mcprt-home-');
  writeFileSync(join(home, 'app-server.token'), `${TOKEN}\n`, { mode: 0o600 });
  writeFileSync(join(home, 'config.toml'), '# mine\n', { mode: 0o600 });
  const work = tempDir('mcprt-work-');
  return { home, work, env: { ...process.env, MCPRT_HOME: home } };
}

const profile = (entries: { path: string; access: string }[], cwd: string) => ({
  permissionProfile: {
    type: 'managed',
    file_system: {
      type: 'restricted',
      entries: [
        { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
        ...entries.map((e) => ({ path: { type: 'path', path: e.path }, access: e.access })),
      ],
    },
    network: 'restricted',
  },
  sandboxCwd: cwd,
});

describe('mcprt sandbox hides mcprt’s secrets', () => {
  beforeAll(() => assertBubblewrapWorks());

  it('the home stays hidden even when the profile names it readable and writable', () => {
    const { home, work, env } = setUp();
    const state = profile(
      [
        { path: home, access: 'read' },
        { path: join(home, 'app-server.token'), access: 'write' },
        { path: join(home, 'config.toml'), access: 'write' },
      ],
      work,
    );
    const r = runSandbox(
      state,
      [
        'sh',
        '-c',
        `cat ${home}/app-server.token; echo read=$?; echo '[mcp_servers.x]' >> ${home}/config.toml; echo write=$?; ls -A ${home} | wc -l`,
      ],
      { env },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stdout).toMatch(/read=[1-9]/);
    expect(r.stdout).toMatch(/write=[1-9]/);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toBe('# mine\n');
  });

  it('hides what the runtime registered, and refuses when that list cannot be read', () => {
    const { work, env } = setUp();
    const registry = tempDir('mcprt-launcher-');
    const tokenFile = join(tempDir('mcprt-token-'), 'ws.token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const list = join(registry, 'protected');
    writeFileSync(list, JSON.stringify([tokenFile]));
    const state = { sandboxPolicy: { type: 'readOnly' }, sandboxCwd: work };
    const withList = { ...env, MCPRT_SANDBOX_PROTECT_FILE: list };
    const r = runSandbox(state, ['sh', '-c', `cat ${tokenFile}; cat ${list}; echo done`], {
      env: withList,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('done\n');

    writeFileSync(list, 'not json');
    const refused = runSandbox(state, ['sh', '-c', 'echo ran'], { env: withList });
    expect(refused.status).toBe(125);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^mcprt sandbox: cannot enforce the sandbox state: cannot read the paths to hide from \$MCPRT_SANDBOX_PROTECT_FILE \(.*\): .*; `sh` was not run\n$/,
    );
  });

  it('refuses a sandbox whose working directory is inside the mcprt home', () => {
    const { home, env } = setUp();
    const inside = join(home, 'work');
    mkdirSync(inside);
    const r = runSandbox({ sandboxPolicy: { type: 'readOnly' }, sandboxCwd: inside }, ['true'], {
      env,
    });
    expect(r.status).toBe(125);
    expect(r.stderr).toBe(
      `mcprt sandbox: cannot enforce the sandbox state: the sandbox cwd \`${inside}\` is inside \`${home}\`, which sandboxed commands must not see; \`true\` was not run\n`,
    );
  });

  it('dangerFullAccess runs as is: the home is visible', () => {
    const { home, work, env } = setUp();
    const r = runSandbox(
      { sandboxPolicy: { type: 'dangerFullAccess' }, sandboxCwd: work },
      ['cat', join(home, 'app-server.token')],
      { env },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${TOKEN}\n`);
  });
});
