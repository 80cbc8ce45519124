/** Tests for loadConfig: Codex server rules and texts, environments, strict and Codex modes. */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigInvalidError, ConfigParseError } from '../errors.js';
import { DEFAULT_HISTORY } from './history.js';
import { DEFAULT_SUPERVISION } from './supervision.js';
import { loadConfig } from './load.js';
import type { LoadConfigOptions } from './load.js';
import type { McprtConfig } from './types.js';
import { DEFAULT_SERVE_CONFIG } from './viewTypes.js';

const dir = mkdtempSync(join(tmpdir(), 'mcprt-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(text: string): string {
  const file = join(dir, `config-${counter++}.toml`);
  writeFileSync(file, text);
  return file;
}

function load(
  lines: readonly string[],
  opts: Omit<LoadConfigOptions, 'file'> = {},
): { file: string; config: McprtConfig } {
  const file = write(lines.join('\n') + '\n');
  return { file, config: loadConfig({ ...opts, file }) };
}

/** Messages of the invalid server `name` (thread-wide unless `env` is given). */
function problemsOf(config: McprtConfig, name: string, env: string | null = null): string[] {
  const invalid = config.invalidServers.find(
    (s) => s.scope.name === name && s.scope.environmentId === env,
  );
  if (invalid === undefined) throw new Error(`server ${name} is not invalid`);
  return invalid.diagnostics.map((d) => d.message);
}

function names(config: McprtConfig): string[] {
  return config.servers.map((s) => `${s.scope.name}@${s.scope.environmentId ?? '-'}`);
}

describe('loadConfig: files and TOML syntax', () => {
  it('a missing file is an empty config with no diagnostics', () => {
    const file = join(dir, 'missing', 'config.toml');
    expect(loadConfig({ file })).toEqual({
      file,
      environments: [],
      servers: [],
      invalidServers: [],
      invalidEnvironments: [],
      warnings: [],
      mcpOAuthCredentialsStore: 'auto',
      mcpOAuthCallbackPort: null,
      mcpOAuthCallbackUrl: null,
      sandboxLauncher: { kind: 'default' },
      history: DEFAULT_HISTORY,
      views: [],
      invalidViews: [],
      serve: DEFAULT_SERVE_CONFIG,
    });
  });

  it('bad TOML throws ConfigParseError with file:line:column', () => {
    const file = write(
      ['a = 1', '[mcp_servers.docs]', 'command = "node"', 'args = ["a",', ''].join('\n'),
    );
    let error: unknown;
    try {
      loadConfig({ file });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigParseError);
    const parseError = error as ConfigParseError;
    expect(parseError.code).toBe('config_parse');
    expect(parseError.message).toBe(
      `${file}:5:1: invalid TOML: Invalid TOML document: invalid value`,
    );
    expect([parseError.file, parseError.line, parseError.column]).toEqual([file, 5, 1]);
  });

  it('reports a redefined table at its position, also for text given directly', () => {
    expect(() => loadConfig({ file: '/x/config.toml', text: '[a]\nx = 1\n\n[a]\n' })).toThrowError(
      '/x/config.toml:4:2: invalid TOML: Invalid TOML document: trying to redefine an already defined table or value',
    );
    expect(() => loadConfig({ file: '/x/c.toml', text: 'x = "unterminated\n' })).toThrowError(
      '/x/c.toml:1:18: invalid TOML: Invalid TOML document: control characters are not allowed in strings',
    );
  });

  it('resolves a relative file to an absolute path', () => {
    expect(loadConfig({ file: 'rel/config.toml', text: '' }).file).toBe(
      join(process.cwd(), 'rel/config.toml'),
    );
  });
});

describe('loadConfig: servers', () => {
  it('reads a stdio server with every field', () => {
    const { file, config } = load([
      '# servers', // 1
      '[mcp_servers.docs]', // 2
      'command = "npx"',
      'args = ["-y", "docs-server"]',
      'env = { TOKEN_FILE = "/tmp/t" }',
      'env_vars = ["HOME", { name = "API_KEY" }, { name = "REGION", source = "local" }]',
      'cwd = "work"',
      'enabled = false',
      'required = true',
      'supports_parallel_tool_calls = true',
      'startup_timeout_sec = 2.5',
      'tool_timeout_sec = 60',
      'default_tools_approval_mode = "writes"',
      'enabled_tools = ["search", "fetch"]',
      'disabled_tools = []',
      'omit_tools_from = ["deferred"]',
      'name = "legacy display name"',
      'experimental_environment = "ignored"',
      'restart = "never"',
      'restart_max_attempts = 3',
      'restart_backoff_sec = 0.25',
      'restart_wait_sec = 2',
      'max_message_bytes = 1048576',
      'health_check_interval_sec = 15',
      '',
      '[mcp_servers.docs.tools.search]',
      'approval_mode = "approve"',
      'output_token_limit = 4000',
    ]);
    expect(config.invalidServers).toEqual([]);
    expect(config.warnings).toEqual([]);
    expect(config.servers).toEqual([
      {
        scope: { environmentId: null, name: 'docs' },
        transport: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'docs-server'],
          env: { TOKEN_FILE: '/tmp/t' },
          envVars: [
            { name: 'HOME', source: null },
            { name: 'API_KEY', source: null },
            { name: 'REGION', source: 'local' },
          ],
          cwd: 'work',
        },
        executionEnvironmentId: 'local',
        enabled: false,
        required: true,
        startupTimeoutMs: 2500,
        toolTimeoutMs: 60_000,
        enabledTools: ['search', 'fetch'],
        disabledTools: [],
        scopes: null,
        oauth: null,
        oauthResource: null,
        supportsParallelToolCalls: true,
        defaultToolsApprovalMode: 'writes',
        tools: { search: { approvalMode: 'approve', outputTokenLimit: 4000 } },
        supervision: {
          restart: 'never',
          maxRestarts: 3,
          restartBackoffMs: 250,
          restartWaitMs: 2000,
          maxMessageBytes: 1048576,
          healthCheckIntervalMs: 15_000,
        },
        protocolVersion: 'auto',
        location: { file, line: 2, column: 1, keyPath: 'mcp_servers.docs' },
      },
    ]);
  });

  it('reads a streamable HTTP server with every field and Codex defaults', () => {
    const { file, config } = load([
      '[mcp_servers.figma]', // 1
      'url = "https://mcp.figma.com/mcp"',
      'bearer_token_env_var = "FIGMA_TOKEN"',
      'http_headers = { "X-Team" = "design" }',
      'env_http_headers = { "X-Org" = "FIGMA_ORG" }',
      'http_headers_helper = "print-headers"',
      'auth = "chatgpt"',
      'scopes = []',
      'oauth = { client_id = "abc", callback_url = "http://127.0.0.1:5555/cb", callback_port = 5555 }',
      'oauth_resource = "https://mcp.figma.com"',
      'environment_id = "local"',
    ]);
    expect(config.invalidServers).toEqual([]);
    expect(config.servers).toEqual([
      {
        scope: { environmentId: null, name: 'figma' },
        transport: {
          type: 'streamable_http',
          url: 'https://mcp.figma.com/mcp',
          bearerTokenEnvVar: 'FIGMA_TOKEN',
          httpHeaders: { 'X-Team': 'design' },
          envHttpHeaders: { 'X-Org': 'FIGMA_ORG' },
        },
        executionEnvironmentId: 'local',
        enabled: true,
        required: false,
        startupTimeoutMs: 30_000,
        toolTimeoutMs: 300_000,
        enabledTools: null,
        disabledTools: null,
        scopes: [],
        oauth: {
          clientId: 'abc',
          callbackUrl: 'http://127.0.0.1:5555/cb',
          callbackPort: 5555,
          grant: 'authorization_code',
          dpop: 'auto',
          issuer: null,
          clientSecret: null,
          privateKey: null,
          assertion: null,
          identityProvider: null,
        },
        oauthResource: 'https://mcp.figma.com',
        supportsParallelToolCalls: false,
        defaultToolsApprovalMode: 'auto',
        tools: {},
        supervision: DEFAULT_SUPERVISION,
        protocolVersion: 'auto',
        location: { file, line: 1, column: 1, keyPath: 'mcp_servers.figma' },
      },
    ]);
  });

  it('infers the transport: command wins over url; neither is `invalid transport`', () => {
    const { file, config } = load([
      '[mcp_servers.both]', // 1
      'command = "x"', // 2
      'url = "http://x"', // 3
      '[mcp_servers.neither]', // 4
      'enabled = true', // 5
    ]);
    expect(problemsOf(config, 'both')).toEqual([
      `${file}:3:1: mcp_servers.both.url: url is not supported for stdio`,
    ]);
    expect(problemsOf(config, 'neither')).toEqual([
      `${file}:4:1: mcp_servers.neither: invalid transport`,
    ]);
  });

  it('stdio rejects each HTTP-only field with one diagnostic per field', () => {
    const { file, config } = load([
      '[mcp_servers.local]', // 1
      'command = "node"', // 2
      'url = "http://x"', // 3
      'bearer_token_env_var = "T"', // 4
      'bearer_token = "secret"', // 5
      'http_headers_helper = "echo {}"', // 6
      'http_headers = { A = "b" }', // 7
      'env_http_headers = { A = "B" }', // 8
      'oauth = { client_id = "c" }', // 9
      'oauth_resource = "r"', // 10
      'auth = "oauth"', // 11
      'scopes = ["read"]', // 12 (accepted on both transports)
    ]);
    const fields = [
      'url',
      'bearer_token_env_var',
      'bearer_token',
      'http_headers_helper',
      'http_headers',
      'env_http_headers',
      'oauth',
      'oauth_resource',
      'auth',
    ];
    expect(problemsOf(config, 'local')).toEqual(
      fields.map(
        (field, i) =>
          `${file}:${i + 3}:1: mcp_servers.local.${field}: ${field} is not supported for stdio`,
      ),
    );
  });

  it('streamable_http rejects each stdio-only field and inline bearer_token', () => {
    const { file, config } = load([
      '[mcp_servers.remote]', // 1
      'url = "http://x"', // 2
      'args = ["a"]', // 3
      'env = { A = "b" }', // 4
      'env_vars = ["A"]', // 5
      'cwd = "/tmp"', // 6
      'bearer_token = "secret"', // 7
    ]);
    const fields = ['args', 'env', 'env_vars', 'cwd', 'bearer_token'];
    expect(problemsOf(config, 'remote')).toEqual(
      fields.map(
        (field, i) =>
          `${file}:${i + 3}:1: mcp_servers.remote.${field}: ${field} is not supported for streamable_http`,
      ),
    );
  });

  it('an invalid server name fails that server alone, with Codex text', () => {
    const { file, config } = load([
      '[mcp_servers."bad.name"]', // 1
      'command = "x"', // 2
      '', // 3
      '[mcp_servers.good]', // 4
      'command = "y"', // 5
      'required = true', // 6
    ]);
    expect(names(config)).toEqual(['good@-']);
    expect(config.invalidServers).toEqual([
      {
        scope: { environmentId: null, name: 'bad.name' },
        location: { file, line: 1, column: 1, keyPath: 'mcp_servers."bad.name"' },
        diagnostics: [
          {
            severity: 'error',
            location: { file, line: 1, column: 1, keyPath: 'mcp_servers."bad.name"' },
            problem: "Invalid MCP server name 'bad.name': must match pattern ^[a-zA-Z0-9_-]+$",
            message: `${file}:1:1: mcp_servers."bad.name": Invalid MCP server name 'bad.name': must match pattern ^[a-zA-Z0-9_-]+$`,
          },
        ],
        error: `${file}:1:1: mcp_servers."bad.name": Invalid MCP server name 'bad.name': must match pattern ^[a-zA-Z0-9_-]+$`,
        enabled: true,
        required: false,
      },
    ]);
  });

  it('a bad server fails alone and keeps its enabled/required flags', () => {
    const { file, config } = load([
      '[mcp_servers.one]', // 1
      'command = "a"', // 2
      '[mcp_servers.broken]', // 3
      'url = "http://x"', // 4
      'cwd = "/"', // 5
      'required = true', // 6
      'enabled = false', // 7
      '[mcp_servers.three]', // 8
      'url = "http://y"', // 9
    ]);
    expect(names(config)).toEqual(['one@-', 'three@-']);
    expect(config.invalidServers).toHaveLength(1);
    expect(config.invalidServers[0]).toMatchObject({
      scope: { environmentId: null, name: 'broken' },
      error: `${file}:5:1: mcp_servers.broken.cwd: cwd is not supported for streamable_http`,
      enabled: false,
      required: true,
    });
  });

  it('a server value that is not a table is invalid', () => {
    const { file, config } = load(['[mcp_servers]', 'docs = "npx docs"']);
    expect(problemsOf(config, 'docs')).toEqual([
      `${file}:2:1: mcp_servers.docs: expected a table, found string`,
    ]);
  });

  it('reports type errors clearly, at the offending key', () => {
    const { file, config } = load([
      '[mcp_servers.t]', // 1
      'command = 1', // 2
      'args = "x"', // 3
      'env = { A = 1 }', // 4
      'enabled = "yes"', // 5
      'enabled_tools = ["a", 2]', // 6
      'default_tools_approval_mode = "never"', // 7
      'tools = { search = { approval_mode = "sometimes", output_token_limit = -1 } }', // 8
      'oauth_resource = 3', // 9 (rejected for stdio, not type-checked)
      'scopes = "read"', // 10
      'required = 1', // 11
    ]);
    expect(problemsOf(config, 't')).toEqual([
      `${file}:2:1: mcp_servers.t.command: expected a string, found integer`,
      `${file}:3:1: mcp_servers.t.args: expected an array of strings, found string`,
      `${file}:4:9: mcp_servers.t.env.A: expected a string, found integer`,
      `${file}:5:1: mcp_servers.t.enabled: expected a boolean, found string`,
      `${file}:6:1: mcp_servers.t.enabled_tools[1]: expected a string, found integer`,
      `${file}:7:1: mcp_servers.t.default_tools_approval_mode: unknown variant \`never\`, expected one of \`auto\`, \`prompt\`, \`writes\`, \`approve\``,
      `${file}:8:22: mcp_servers.t.tools.search.approval_mode: unknown variant \`sometimes\`, expected one of \`auto\`, \`prompt\`, \`writes\`, \`approve\``,
      `${file}:8:51: mcp_servers.t.tools.search.output_token_limit: output_token_limit must not be negative`,
      `${file}:9:1: mcp_servers.t.oauth_resource: oauth_resource is not supported for stdio`,
      `${file}:10:1: mcp_servers.t.scopes: expected an array of strings, found string`,
      `${file}:11:1: mcp_servers.t.required: expected a boolean, found integer`,
    ]);
  });

  it('checks env_vars entries and their source', () => {
    const { file, config } = load([
      '[mcp_servers.loc]', // 1
      'command = "x"', // 2
      'env_vars = [', // 3
      '  "A",', // 4
      '  { name = "B", source = "local" },', // 5
      '  { name = "C", source = "remote" },', // 6
      '  { name = "D", source = "cloud" },', // 7
      '  { source = "local" },', // 8
      '  7,', // 9
      ']', // 10
      '[mcp_servers.remote-exec]', // 11
      'command = "x"', // 12
      'environment_id = "dev"', // 13
      'env_vars = [{ name = "C", source = "remote" }]', // 14
      '[environments.dev]', // 15
      'type = "ssh"', // 16
      'host = "dev.example"', // 17
      '[environments.dev.mcp_servers.contrib]', // 18
      'command = "x"', // 19
      'env_vars = [{ name = "E", source = "remote" }]', // 20
    ]);
    expect(problemsOf(config, 'loc')).toEqual([
      `${file}:3:1: mcp_servers.loc.env_vars[2].source: env_vars entry \`C\` uses source \`remote\`, which requires remote MCP stdio`,
      `${file}:3:1: mcp_servers.loc.env_vars[3].source: unsupported env_vars source \`cloud\`; expected \`local\` or \`remote\``,
      `${file}:3:1: mcp_servers.loc.env_vars[4]: missing field \`name\``,
      `${file}:3:1: mcp_servers.loc.env_vars[5]: expected a string or a table, found integer`,
    ]);
    const byName = new Map(config.servers.map((s) => [s.scope.name, s]));
    const remote = byName.get('remote-exec');
    expect(remote?.executionEnvironmentId).toBe('dev');
    expect(remote?.transport).toMatchObject({ envVars: [{ name: 'C', source: 'remote' }] });
    expect(byName.get('contrib')?.transport).toMatchObject({
      envVars: [{ name: 'E', source: 'remote' }],
    });
  });

  it('converts timeouts like Codex: sec wins over ms, fractions allowed, bad floats rejected', () => {
    const { file, config } = load([
      '[mcp_servers.a]', // 1
      'command = "x"', // 2
      '[mcp_servers.b]', // 3
      'command = "x"', // 4
      'startup_timeout_sec = 0.5', // 5
      'startup_timeout_ms = 9000', // 6
      'tool_timeout_sec = 12', // 7
      '[mcp_servers.c]', // 8
      'command = "x"', // 9
      'startup_timeout_ms = 9000', // 10
      '[mcp_servers.d]', // 11
      'command = "x"', // 12
      'startup_timeout_sec = -1', // 13
      'tool_timeout_sec = nan', // 14
      '[mcp_servers.e]', // 15
      'command = "x"', // 16
      'startup_timeout_sec = -inf', // 17
      'tool_timeout_sec = inf', // 18
      '[mcp_servers.f]', // 19
      'command = "x"', // 20
      'startup_timeout_sec = 1e300', // 21
      'tool_timeout_sec = "10"', // 22
      'startup_timeout_ms = 1.5', // 23
    ]);
    const timeouts = config.servers.map((s) => [s.scope.name, s.startupTimeoutMs, s.toolTimeoutMs]);
    expect(timeouts).toEqual([
      ['a', 30_000, 300_000],
      ['b', 500, 12_000],
      ['c', 9000, 300_000],
    ]);
    const negative = 'cannot convert float seconds to Duration: value is negative';
    const tooBig = 'cannot convert float seconds to Duration: value is either too big or NaN';
    expect(problemsOf(config, 'd')).toEqual([
      `${file}:13:1: mcp_servers.d.startup_timeout_sec: ${negative}`,
      `${file}:14:1: mcp_servers.d.tool_timeout_sec: ${tooBig}`,
    ]);
    expect(problemsOf(config, 'e')).toEqual([
      `${file}:17:1: mcp_servers.e.startup_timeout_sec: ${negative}`,
      `${file}:18:1: mcp_servers.e.tool_timeout_sec: ${tooBig}`,
    ]);
    expect(problemsOf(config, 'f')).toEqual([
      `${file}:21:1: mcp_servers.f.startup_timeout_sec: ${tooBig}`,
      `${file}:22:1: mcp_servers.f.tool_timeout_sec: expected a number, found string`,
      `${file}:23:1: mcp_servers.f.startup_timeout_ms: expected an integer, found float`,
    ]);
  });

  it('checks http_headers_helper: not blank, local servers only', () => {
    const { file, config } = load([
      '[mcp_servers.blank]', // 1
      'url = "http://x"', // 2
      'http_headers_helper = "  "', // 3
      '[mcp_servers.remote]', // 4
      'url = "http://x"', // 5
      'environment_id = "dev"', // 6
      'http_headers_helper = "print-headers"', // 7
    ]);
    expect(problemsOf(config, 'blank')).toEqual([
      `${file}:3:1: mcp_servers.blank.http_headers_helper: http_headers_helper must not be empty`,
    ]);
    expect(problemsOf(config, 'remote')).toEqual([
      `${file}:7:1: mcp_servers.remote.http_headers_helper: http_headers_helper is only supported for local MCP servers`,
    ]);
  });

  it('checks oauth callback_port and auth values', () => {
    const { file, config } = load([
      '[mcp_servers.o]', // 1
      'url = "http://x"', // 2
      'auth = "password"', // 3
      '[mcp_servers.o.oauth]', // 4
      'callback_port = 0', // 5
    ]);
    expect(problemsOf(config, 'o')).toEqual([
      `${file}:3:1: mcp_servers.o.auth: unknown variant \`password\`, expected \`oauth\` or \`chatgpt\``,
      `${file}:5:1: mcp_servers.o.oauth.callback_port: callback_port must be between 1 and 65535`,
    ]);
  });

  it('warns about unknown keys without failing the server', () => {
    const { file, config } = load([
      '[mcp_servers.docs]', // 1
      'command = "x"', // 2
      'comand = "typo"', // 3
      'oauth_client = 1', // 4
    ]);
    expect(names(config)).toEqual(['docs@-']);
    expect(config.warnings.map((w) => [w.severity, w.message])).toEqual([
      ['warning', `${file}:3:1: mcp_servers.docs.comand: unknown key \`comand\``],
      ['warning', `${file}:4:1: mcp_servers.docs.oauth_client: unknown key \`oauth_client\``],
    ]);
  });
});

describe('loadConfig: supervision keys', () => {
  it('reports bad values at their key, and the server fails alone', () => {
    const { file, config } = load([
      '[mcp_servers.bad]', // 1
      'command = "x"',
      'restart = "always"', // 3
      'restart_max_attempts = -1', // 4
      'max_message_bytes = 10', // 5
      'health_check_interval_sec = 0.01', // 6
      '[mcp_servers.good]',
      'command = "y"',
    ]);
    expect(config.servers.map((s) => s.scope.name)).toEqual(['good']);
    expect(config.invalidServers[0]!.diagnostics.map((d) => d.message)).toEqual([
      `${file}:3:1: mcp_servers.bad.restart: unknown variant \`always\`, expected \`on-failure\` or \`never\``,
      `${file}:4:1: mcp_servers.bad.restart_max_attempts: restart_max_attempts must be between 0 and 1000`,
      `${file}:5:1: mcp_servers.bad.max_message_bytes: max_message_bytes must be between 1024 and 2147483647`,
      `${file}:6:1: mcp_servers.bad.health_check_interval_sec: health_check_interval_sec must be at least 0.1`,
    ]);
  });
});

describe('loadConfig: strict mode', () => {
  it('throws ConfigInvalidError listing every message, warnings included', () => {
    const lines = [
      'colour = "blue"', // 1
      '[mcp_servers.docs]', // 2
      'command = "x"', // 3
      'comand = "typo"', // 4
      '[mcp_servers.http]', // 5
      'url = "http://x"', // 6
      'cwd = "/"', // 7
    ];
    const file = write(lines.join('\n'));
    let error: unknown;
    try {
      loadConfig({ file, strict: true });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigInvalidError);
    const invalid = error as ConfigInvalidError;
    expect(invalid.code).toBe('config_invalid');
    expect(invalid.message).toBe(
      [
        `${file}:1:1: colour: unknown key \`colour\``,
        `${file}:4:1: mcp_servers.docs.comand: unknown key \`comand\``,
        `${file}:7:1: mcp_servers.http.cwd: cwd is not supported for streamable_http`,
      ].join('\n'),
    );
    expect(invalid.diagnostics.every((d) => d.severity === 'error')).toBe(true);
    // The same file loads in non-strict mode.
    expect(names(loadConfig({ file }))).toEqual(['docs@-']);
  });

  it('does not throw for a clean config', () => {
    const { config } = load(['[mcp_servers.docs]', 'command = "x"'], { strict: true });
    expect(names(config)).toEqual(['docs@-']);
  });
});

describe('loadConfig: top level and Codex mode', () => {
  it('reads the global OAuth keys', () => {
    const { config } = load([
      'mcp_oauth_credentials_store = "file"',
      'mcp_oauth_callback_port = 8765',
      'mcp_oauth_callback_url = "https://devbox.example/callback"',
    ]);
    expect(config.warnings).toEqual([]);
    expect([
      config.mcpOAuthCredentialsStore,
      config.mcpOAuthCallbackPort,
      config.mcpOAuthCallbackUrl,
    ]).toEqual(['file', 8765, 'https://devbox.example/callback']);
  });

  it('bad global values are warnings and fall back to the defaults', () => {
    const { file, config } = load([
      'mcp_oauth_credentials_store = "vault"', // 1
      'mcp_oauth_callback_port = 0', // 2
      'mcp_oauth_callback_url = 5', // 3
    ]);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${file}:1:1: mcp_oauth_credentials_store: unknown variant \`vault\`, expected one of \`auto\`, \`keyring\`, \`file\``,
      `${file}:2:1: mcp_oauth_callback_port: mcp_oauth_callback_port must be between 1 and 65535`,
      `${file}:3:1: mcp_oauth_callback_url: expected a string, found integer`,
    ]);
    expect([
      config.mcpOAuthCredentialsStore,
      config.mcpOAuthCallbackPort,
      config.mcpOAuthCallbackUrl,
    ]).toEqual(['auto', null, null]);
  });

  const codexConfig = [
    'model = "gpt-5-codex"', // 1
    'model_provider = "openai"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    'model_reasoning_effort = "high"',
    'notify = ["notify-send", "Codex"]',
    'mcp_oauth_credentials_store = "keyring"',
    '',
    '[sandbox_workspace_write]',
    'network_access = true',
    'writable_roots = ["/tmp"]',
    '',
    '[model_providers.azure]',
    'name = "Azure"',
    'base_url = "https://example.openai.azure.com/openai"',
    'env_key = "AZURE_OPENAI_API_KEY"',
    'query_params = { api-version = "2025-04-01-preview" }',
    '',
    '[profiles.fast]',
    'model = "gpt-5-mini"',
    'approval_policy = "never"',
    '',
    '[features]',
    'web_search_request = true',
    'rmcp_client = true',
    '',
    '[projects."/home/ada/src/app"]',
    'trust_level = "trusted"',
    '',
    '[tui]',
    'notifications = ["agent-turn-complete"]',
    '',
    '[shell_environment_policy]',
    'inherit = "core"',
    'exclude = ["AWS_*"]',
    '',
    '[history]',
    'persistence = "save-all"',
    '',
    '[[skills.config]]',
    'path = "/home/ada/skills/x"',
    'enabled = false',
    '',
    '[mcp_servers.context7]',
    'command = "npx"',
    'args = ["-y", "@upstash/context7-mcp"]',
    'startup_timeout_sec = 20',
    '',
    '[mcp_servers.context7.env]',
    'LOG_LEVEL = "warn"',
    '',
    '[mcp_servers.figma]',
    'url = "https://mcp.figma.com/mcp"',
    'bearer_token_env_var = "FIGMA_OAUTH_TOKEN"',
    'http_headers = { "X-Figma-Region" = "us-east-1" }',
    'default_tools_approval_mode = "prompt"',
    '',
    '[mcp_servers.figma.tools.get_code]',
    'approval_mode = "approve"',
  ];

  it('loads a realistic Codex config with zero warnings in codex mode', () => {
    const { config } = load(codexConfig, { mode: 'codex', strict: true });
    expect(config.warnings).toEqual([]);
    expect(config.invalidServers).toEqual([]);
    expect(config.invalidEnvironments).toEqual([]);
    expect(names(config)).toEqual(['context7@-', 'figma@-']);
    expect(config.mcpOAuthCredentialsStore).toBe('keyring');
    expect(config.servers[0]?.transport).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@upstash/context7-mcp'],
      env: { LOG_LEVEL: 'warn' },
      envVars: [],
      cwd: null,
    });
    expect(config.servers[0]?.startupTimeoutMs).toBe(20_000);
    expect(config.servers[1]?.tools).toEqual({
      get_code: { approvalMode: 'approve', outputTokenLimit: null },
    });
  });

  it('the same file in mcprt mode warns about each unknown top-level key', () => {
    const { file, config } = load(codexConfig);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${file}:1:1: model: unknown key \`model\``,
      `${file}:2:1: model_provider: unknown key \`model_provider\``,
      `${file}:3:1: approval_policy: unknown key \`approval_policy\``,
      `${file}:4:1: sandbox_mode: unknown key \`sandbox_mode\``,
      `${file}:5:1: model_reasoning_effort: unknown key \`model_reasoning_effort\``,
      `${file}:6:1: notify: unknown key \`notify\``,
      `${file}:9:1: sandbox_workspace_write: unknown key \`sandbox_workspace_write\``,
      `${file}:13:1: model_providers: unknown key \`model_providers\``,
      `${file}:19:1: profiles: unknown key \`profiles\``,
      `${file}:23:1: features: unknown key \`features\``,
      `${file}:27:1: projects: unknown key \`projects\``,
      `${file}:30:1: tui: unknown key \`tui\``,
      `${file}:33:1: shell_environment_policy: unknown key \`shell_environment_policy\``,
      // mcprt has a [history] table of its own: Codex's keys in it are unknown to mcprt.
      `${file}:38:1: history.persistence: unknown key \`persistence\``,
      `${file}:40:1: skills: unknown key \`skills\``,
    ]);
    expect(names(config)).toEqual(['context7@-', 'figma@-']);
  });
});

describe('loadConfig: environments', () => {
  it('reads exec and ssh environments in file order', () => {
    const { file, config } = load([
      '[environments.ctr]', // 1
      'type = "exec"',
      'program = "docker"',
      'args = ["exec", "-i", "ctr"]',
      'cwd = "/work"',
      'http = "direct"',
      '', // 7
      '[environments.devbox]', // 8
      'type = "ssh"',
      'host = "devbox.example"',
      'user = "ada"',
      'port = 2222',
      'identity_file = "~/.ssh/id_ed25519"',
      'ssh_options = ["-o", "StrictHostKeyChecking=accept-new"]',
      'cwd = "/home/ada"',
      '', // 16
      '[environments.minimal]', // 17
      'type = "ssh"',
      'host = "m"',
    ]);
    expect(config.warnings).toEqual([]);
    expect(config.invalidEnvironments).toEqual([]);
    expect(config.environments).toEqual([
      {
        id: 'ctr',
        type: 'exec',
        program: 'docker',
        args: ['exec', '-i', 'ctr'],
        cwd: '/work',
        http: 'direct',
        description: null,
        location: { file, line: 1, column: 1, keyPath: 'environments.ctr' },
      },
      {
        id: 'devbox',
        type: 'ssh',
        host: 'devbox.example',
        user: 'ada',
        port: 2222,
        identityFile: '~/.ssh/id_ed25519',
        sshOptions: ['-o', 'StrictHostKeyChecking=accept-new'],
        cwd: '/home/ada',
        description: null,
        location: { file, line: 8, column: 1, keyPath: 'environments.devbox' },
      },
      {
        id: 'minimal',
        type: 'ssh',
        host: 'm',
        user: null,
        port: null,
        identityFile: null,
        sshOptions: [],
        cwd: null,
        description: null,
        location: { file, line: 17, column: 1, keyPath: 'environments.minimal' },
      },
    ]);
  });

  it('exec defaults: no args, no cwd, http unsupported', () => {
    const { config } = load(['[environments.ctr]', 'type = "exec"', 'program = "docker"']);
    expect(config.environments[0]).toMatchObject({ args: [], cwd: null, http: 'unsupported' });
  });

  const idCases: [string, string, string][] = [
    ['""', 'environments.""', 'environment id cannot be empty'],
    [
      '" dev"',
      'environments." dev"',
      'environment id ` dev` must not contain surrounding whitespace',
    ],
    [
      '"dev "',
      'environments."dev "',
      'environment id `dev ` must not contain surrounding whitespace',
    ],
    ['local', 'environments.local', 'environment id `local` is reserved'],
    ['none', 'environments.none', 'environment id `none` is reserved'],
    ['NoNe', 'environments.NoNe', 'environment id `NoNe` is reserved'],
    [
      'a'.repeat(65),
      `environments.${'a'.repeat(65)}`,
      `environment id \`${'a'.repeat(65)}\` cannot be longer than 64 characters`,
    ],
    [
      '"dev.box"',
      'environments."dev.box"',
      "environment id `dev.box` must contain only ASCII letters, numbers, '-' or '_'",
    ],
    [
      '"dév"',
      'environments."dév"',
      "environment id `dév` must contain only ASCII letters, numbers, '-' or '_'",
    ],
  ];

  it.each(idCases)('rejects environment id %s with Codex text', (key, keyPath, problem) => {
    const { file, config } = load([
      `[environments.${key}]`, // 1
      'type = "exec"', // 2
      'program = "docker"', // 3
      `[environments.${key}.mcp_servers.srv]`, // 4
      'command = "x"', // 5
    ]);
    expect(config.environments).toEqual([]);
    expect(config.invalidEnvironments).toHaveLength(1);
    expect(config.invalidEnvironments[0]?.error).toBe(`${file}:1:1: ${keyPath}: ${problem}`);
    expect(config.servers).toEqual([]);
    const id = config.invalidEnvironments[0]?.id ?? '';
    expect(problemsOf(config, 'srv', id)).toEqual([
      `${file}:4:1: ${keyPath}.mcp_servers.srv: environment \`${id}\` is invalid: ${problem}`,
    ]);
  });

  it('accepts a 64-character id made of letters, digits, - and _', () => {
    const id = `A-z_0${'x'.repeat(59)}`;
    const { config } = load([`[environments.${id}]`, 'type = "exec"', 'program = "p"']);
    expect(config.invalidEnvironments).toEqual([]);
    expect(config.environments.map((e) => e.id)).toEqual([id]);
  });

  it('reports exec and ssh table problems with exact texts', () => {
    const { file, config } = load([
      '[environments.notype]', // 1
      'program = "x"', // 2
      '[environments.docker]', // 3
      'type = "docker"', // 4
      '[environments.empty]', // 5
      'type = "exec"', // 6
      'program = " "', // 7
      '[environments.noprog]', // 8
      'type = "exec"', // 9
      '[environments.relcwd]', // 10
      'type = "exec"', // 11
      'program = "docker"', // 12
      'cwd = "work"', // 13
      '[environments.badport]', // 14
      'type = "ssh"', // 15
      'host = "h"', // 16
      'port = 0', // 17
      '[environments.nohost]', // 18
      'type = "ssh"', // 19
      'cwd = "/ok"', // 20
      '[environments.badhttp]', // 21
      'type = "exec"', // 22
      'program = "docker"', // 23
      'http = "tunnel"', // 24
    ]);
    expect(config.environments).toEqual([]);
    expect(config.invalidEnvironments.map((e) => [e.id, e.error])).toEqual([
      [
        'notype',
        `${file}:1:1: environments.notype: environment \`notype\` has unsupported type \`(none)\`; expected \`exec\` or \`ssh\``,
      ],
      [
        'docker',
        `${file}:4:1: environments.docker.type: environment \`docker\` has unsupported type \`docker\`; expected \`exec\` or \`ssh\``,
      ],
      [
        'empty',
        `${file}:7:1: environments.empty.program: environment \`empty\` program cannot be empty`,
      ],
      ['noprog', `${file}:8:1: environments.noprog: missing field \`program\``],
      [
        'relcwd',
        `${file}:13:1: environments.relcwd.cwd: environment \`relcwd\` cwd must be an absolute path`,
      ],
      [
        'badport',
        `${file}:17:1: environments.badport.port: environment \`badport\` port must be between 1 and 65535`,
      ],
      ['nohost', `${file}:18:1: environments.nohost: missing field \`host\``],
      [
        'badhttp',
        `${file}:24:1: environments.badhttp.http: unknown variant \`tunnel\`, expected \`direct\` or \`unsupported\``,
      ],
    ]);
    expect(config.invalidEnvironments.map((e) => e.location.line)).toEqual([
      1, 3, 5, 8, 10, 14, 18, 21,
    ]);
  });

  it('warns about keys that do not belong to the environment type', () => {
    const { file, config } = load([
      '[environments.ctr]', // 1
      'type = "exec"', // 2
      'program = "docker"', // 3
      'host = "h"', // 4
    ]);
    expect(config.environments.map((e) => e.id)).toEqual(['ctr']);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${file}:4:1: environments.ctr.host: unknown key \`host\``,
    ]);
  });

  it('keeps same-named servers thread-wide and in two environments, in order', () => {
    const { file, config } = load([
      '[environments.a]', // 1
      'type = "ssh"', // 2
      'host = "a.example"', // 3
      '[environments.a.mcp_servers.shared]', // 4
      'command = "shared-server"', // 5
      '[environments.a.mcp_servers.only-a]', // 6
      'url = "http://127.0.0.1:9000/mcp"', // 7
      '', // 8
      '[mcp_servers.shared]', // 9
      'command = "shared-server"', // 10
      '[mcp_servers.runs-in-b]', // 11
      'command = "tool"', // 12
      'environment_id = "b"', // 13
      '', // 14
      '[environments.b]', // 15
      'type = "exec"', // 16
      'program = "docker"', // 17
      'args = ["exec", "-i", "b"]', // 18
      '[environments.b.mcp_servers.shared]', // 19
      'command = "shared-server"', // 20
      'environment_id = "b"', // 21 (same as the contributing environment: fine)
    ]);
    expect(config.invalidServers).toEqual([]);
    expect(
      config.servers.map((s) => [
        s.scope.environmentId,
        s.scope.name,
        s.executionEnvironmentId,
        s.location.line,
      ]),
    ).toEqual([
      [null, 'shared', 'local', 9],
      [null, 'runs-in-b', 'b', 11],
      ['a', 'shared', 'a', 4],
      ['a', 'only-a', 'a', 6],
      ['b', 'shared', 'b', 19],
    ]);
    expect(config.servers[2]?.location).toEqual({
      file,
      line: 4,
      column: 1,
      keyPath: 'environments.a.mcp_servers.shared',
    });
  });

  it('refuses a different environment_id on a contributed server', () => {
    const { file, config } = load([
      '[environments.a]', // 1
      'type = "exec"', // 2
      'program = "p"', // 3
      '[environments.a.mcp_servers.x]', // 4
      'command = "x"', // 5
      'environment_id = "b"', // 6
    ]);
    expect(problemsOf(config, 'x', 'a')).toEqual([
      `${file}:6:1: environments.a.mcp_servers.x.environment_id: environment_id is not supported for servers contributed by environment \`a\``,
    ]);
  });

  it('an invalid environment fails its servers and no others', () => {
    const { file, config } = load([
      '[mcp_servers.shared]', // 1
      'command = "x"', // 2
      '[environments.bad]', // 3
      'type = "exec"', // 4
      'program = ""', // 5
      '[environments.bad.mcp_servers.shared]', // 6
      'command = "x"', // 7
      '[environments.bad.mcp_servers.other]', // 8
      'url = "http://x"', // 9
      '[environments.good]', // 10
      'type = "exec"', // 11
      'program = "p"', // 12
      '[environments.good.mcp_servers.shared]', // 13
      'command = "x"', // 14
    ]);
    const reason = 'environment `bad` is invalid: environment `bad` program cannot be empty';
    expect(names(config)).toEqual(['shared@-', 'shared@good']);
    expect(config.invalidEnvironments).toEqual([
      {
        id: 'bad',
        error: `${file}:5:1: environments.bad.program: environment \`bad\` program cannot be empty`,
        location: { file, line: 3, column: 1, keyPath: 'environments.bad' },
      },
    ]);
    expect(config.invalidServers.map((s) => s.error)).toEqual([
      `${file}:6:1: environments.bad.mcp_servers.shared: ${reason}`,
      `${file}:8:1: environments.bad.mcp_servers.other: ${reason}`,
    ]);
    expect(config.environments.map((e) => e.id)).toEqual(['good']);
  });

  it('non-table `mcp_servers` / `environments` values are reported, not fatal', () => {
    const { file, config } = load(['mcp_servers = "none"', 'environments = []']);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${file}:1:1: mcp_servers: expected a table, found string`,
      `${file}:2:1: environments: expected a table, found array`,
    ]);
    expect(config.servers).toEqual([]);
  });
});
