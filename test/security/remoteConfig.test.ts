/**
 * Finding 2 of issue #14: a remote host's own `~/.mcprt/config.toml` (read through an ssh
 * environment, real sshd) is untrusted. Its registrations may only read `source = "remote"`
 * variables: `env_vars` naming this machine's variables, `bearer_token_env_var`,
 * `env_http_headers` and OAuth keys are refused with an error naming the host, the file and the
 * key, and this machine's stored OAuth tokens are never sent to a server the remote host names —
 * unless this machine's config lends them to that environment (`remote_allow_env_vars`,
 * `remote_allow_oauth`).
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { join } from 'node:path';

import { credentialStoreKey } from '@mcprt/runtime';
import type { Runtime } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, ECHO_SERVER, NODE, q, tempDir, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { Sshd } from '../helpers/sshd.js';

const load = useRuntimes();
const SECRET = `local-only-${randomBytes(12).toString('hex')}`;
const STORED_TOKEN = `stored-access-token-${randomBytes(12).toString('hex')}`;
const remoteHome = tempDir('mcprt-remote-home-');
let sshd: Sshd;
let http: Server;
let httpUrl: string;
const seenHeaders: string[] = [];

function writeRemoteConfig(toml: string): string {
  mkdirSync(join(remoteHome, '.mcprt'), { recursive: true });
  writeFileSync(join(remoteHome, '.mcprt', 'config.toml'), toml);
  return join(remoteHome, '.mcprt', 'config.toml');
}

const echo = (table: string, extra = '') =>
  `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--name', 'remote'])}\n${extra}\n`;

beforeAll(async () => {
  sshd = await Sshd.start([{ home: remoteHome }]);
  // Records every request's headers; answers 404 (the servers never need to connect).
  http = createServer((req, res) => {
    seenHeaders.push(JSON.stringify(req.headers));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
});
afterAll(async () => {
  http?.close();
  await sshd?.close();
});

const env = () => ({ ...process.env, LOCAL_ONLY_SECRET: SECRET, REMOTE_ONE: 'unused-here' });

async function statusOf(runtime: Runtime) {
  const session = runtime.startSession({ threadId: 'remote-trust' });
  await session.ready();
  return { session, status: session.listStatus() };
}

describe("a remote host's config cannot read this machine's secrets", () => {
  it('refuses local env_vars, bearer_token_env_var, env_http_headers and OAuth keys, naming host, file and key', async () => {
    const file = writeRemoteConfig(
      [
        echo('mcp_servers.plain', 'env_vars = ["LOCAL_ONLY_SECRET"]'),
        echo('mcp_servers.tagged', 'env_vars = [{ name = "LOCAL_ONLY_SECRET", source = "local" }]'),
        echo('mcp_servers.remote_var', 'env_vars = [{ name = "REMOTE_ONE", source = "remote" }]'),
        `[mcp_servers.bearer]\nurl = ${q(httpUrl)}\nbearer_token_env_var = "LOCAL_ONLY_SECRET"\n`,
        `[mcp_servers.header]\nurl = ${q(httpUrl)}\nenv_http_headers = { "X-Api-Key" = "LOCAL_ONLY_SECRET" }\n`,
        `[mcp_servers.oauthy]\nurl = ${q(httpUrl)}\nscopes = ["read"]\n`,
      ].join('\n'),
    );
    const runtime = load(sshd.environmentToml('alpha', 0, { cwd: '/' }), env());
    const { status } = await statusOf(runtime);
    const where = `ssh://${sshd.user}@127.0.0.1:${sshd.ports[0]}${file}`;
    const errorOf = (name: string) => status.find((s) => s.name === name)?.error ?? '';
    const lend = 'list it in `remote_allow_env_vars` of [environments.alpha] in this machine';
    expect(errorOf('plain')).toMatch(
      new RegExp(
        `^${escape(where)}:\\d+:\\d+: mcp_servers\\.plain\\.env_vars\\[0\\]: .*${escape(lend)}`,
      ),
    );
    expect(errorOf('plain')).toContain('`LOCAL_ONLY_SECRET` is a variable of this machine');
    expect(errorOf('tagged')).toMatch(/mcp_servers\.tagged\.env_vars\[0\]\.source: /);
    expect(errorOf('bearer')).toMatch(
      new RegExp(`^${escape(where)}:\\d+:\\d+: mcp_servers\\.bearer\\.bearer_token_env_var: `),
    );
    expect(errorOf('header')).toMatch(/mcp_servers\.header\.env_http_headers\.X-Api-Key: /);
    expect(errorOf('oauthy')).toMatch(/mcp_servers\.oauthy\.scopes: .*remote_allow_oauth/);
    for (const name of ['plain', 'tagged', 'bearer', 'header', 'oauthy']) {
      expect(status.find((s) => s.name === name)?.connectionStatus, name).toBe('failed');
    }
    // `source = "remote"` reads the remote side's own variable: allowed.
    expect(status.find((s) => s.name === 'remote_var')?.connectionStatus).toBe('connected');
    expect(JSON.stringify(status)).not.toContain(SECRET);
    expect(seenHeaders.join('\n')).not.toContain(SECRET);
  });

  it('lends a variable only when this machine allow-lists it for that environment', async () => {
    writeRemoteConfig(echo('mcp_servers.lent', 'env_vars = ["LOCAL_ONLY_SECRET"]'));
    const runtime = load(
      sshd.environmentToml('alpha', 0, {
        cwd: '/',
        extra: 'remote_allow_env_vars = ["LOCAL_ONLY_SECRET"]',
      }),
      env(),
    );
    const { session } = await statusOf(runtime);
    const reply = await session.callTool({
      server: 'lent',
      environmentId: 'alpha',
      tool: 'env',
      arguments: { key: 'LOCAL_ONLY_SECRET' },
    });
    expect(text(reply)).toBe(SECRET);
  });

  it("never sends this machine's stored OAuth tokens to a server the remote host names", async () => {
    writeRemoteConfig(`[mcp_servers.docs]\nurl = ${q(httpUrl)}\n`);
    const credentials = (home: string) =>
      writeFileSync(
        join(home, '.credentials.json'),
        JSON.stringify({
          [credentialStoreKey({ environmentId: 'alpha', name: 'docs' }, httpUrl)]: {
            server_name: 'docs',
            environment_id: 'alpha',
            server_url: httpUrl,
            client_id: 'c',
            client: { client_id: 'c' },
            access_token: STORED_TOKEN,
            expires_at: Date.now() + 3_600_000,
            scopes: [],
          },
        }),
        { mode: 0o600 },
      );
    const config = (extra: string) =>
      'mcp_oauth_credentials_store = "file"\n' +
      sshd.environmentToml('alpha', 0, { cwd: '/', extra });

    seenHeaders.length = 0;
    const refused = load(config(''), env());
    credentials(homeOf(refused));
    await statusOf(refused);
    expect(seenHeaders.length).toBeGreaterThan(0);
    expect(seenHeaders.join('\n')).not.toContain(STORED_TOKEN);

    // The control: lent explicitly, the same set-up does send the stored token.
    seenHeaders.length = 0;
    const lent = load(config('remote_allow_oauth = true'), env());
    credentials(homeOf(lent));
    await statusOf(lent);
    expect(seenHeaders.join('\n')).toContain(`Bearer ${STORED_TOKEN}`);
  });
});

function homeOf(runtime: Runtime): string {
  return join(runtime.config.file, '..');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
