/**
 * Validation of one `[mcp_servers.<name>]` / `[environments.<id>.mcp_servers.<name>]` table with
 * Codex's rules and texts: inferred transport, cross-transport field rejection, name pattern,
 * `env_vars` sources, durations, approval modes. A bad table yields an InvalidServerConfig.
 */

import { secondsToMs } from './duration.js';
import { readSupervision, SUPERVISION_KEYS } from './supervision.js';
import type { RegistrationScope } from '../scope.js';
import type { Context } from './diagnostics.js';
import { Sink } from './diagnostics.js';
import { expectedOneOf, Fields, isTable, typeName } from './fields.js';
import { notLent } from './lending.js';
import { readOAuth } from './oauth.js';
import type { KeyPath } from './locate.js';
import {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  PROTOCOL_VERSION_SETTINGS,
} from './types.js';
import type {
  EnvVarRef,
  InvalidServerConfig,
  OAuthClientConfig,
  RemoteTrust,
  ServerConfig,
  ToolOverrideConfig,
  TransportConfig,
} from './types.js';

/** Codex's server-name rule (`codex-mcp/src/rmcp_client.rs`). */
export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** Codex's text for a server name that does not match {@link SERVER_NAME_PATTERN}. */
export function invalidServerNameProblem(name: string): string {
  return `Invalid MCP server name '${name}': must match pattern ^[a-zA-Z0-9_-]+$`;
}

const SERVER_KEYS = new Set([
  'command',
  'args',
  'env',
  'env_vars',
  'cwd',
  'url',
  'bearer_token_env_var',
  'bearer_token',
  'http_headers',
  'env_http_headers',
  'http_headers_helper',
  'environment_id',
  'experimental_environment',
  'auth',
  'enabled',
  'required',
  'supports_parallel_tool_calls',
  'startup_timeout_sec',
  'startup_timeout_ms',
  'tool_timeout_sec',
  'task_timeout_sec',
  'default_tools_approval_mode',
  'enabled_tools',
  'disabled_tools',
  'omit_tools_from',
  'scopes',
  'oauth',
  'oauth_resource',
  'tools',
  'name',
  'protocol_version',
  ...SUPERVISION_KEYS,
]);

type Transport = 'stdio' | 'streamable_http';

const REJECTED_FIELDS: Record<Transport, readonly string[]> = {
  stdio: [
    'url',
    'bearer_token_env_var',
    'bearer_token',
    'http_headers_helper',
    'http_headers',
    'env_http_headers',
    'oauth',
    'oauth_resource',
    'auth',
  ],
  streamable_http: ['args', 'env', 'env_vars', 'cwd', 'bearer_token'],
};

const APPROVAL_MODES = ['auto', 'prompt', 'writes', 'approve'] as const;

export interface ServerResult {
  readonly server: ServerConfig | null;
  readonly invalid: InvalidServerConfig | null;
}

export function validateServer(
  ctx: Context,
  scope: RegistrationScope,
  path: KeyPath,
  raw: unknown,
  /** Set when the contributing environment failed validation: the server fails with it. */
  environmentProblem: string | null,
  /**
   * Set for a table read from an environment's own config (ssh: the remote host's), which is
   * untrusted: it may read this machine's variables and OAuth credentials only as lent here.
   */
  untrusted: RemoteTrust | null = null,
): ServerResult {
  const sink = new Sink(ctx);
  const error = (p: KeyPath, problem: string): void => sink.error(p, problem);
  const warn = (p: KeyPath, problem: string): void => sink.warn(p, problem);
  const location = ctx.location(path);

  const fail = (enabled: boolean, required: boolean): ServerResult => {
    const first = sink.firstError();
    return {
      server: null,
      invalid: {
        scope,
        location,
        diagnostics: sink.sorted(),
        error: first?.message ?? '',
        enabled,
        required,
      },
    };
  };

  if (environmentProblem !== null) {
    error(path, `environment \`${scope.environmentId ?? ''}\` is invalid: ${environmentProblem}`);
  }
  if (!isTable(raw)) {
    error(path, `expected a table, found ${typeName(raw)}`);
    return fail(true, false);
  }
  if (!SERVER_NAME_PATTERN.test(scope.name)) error(path, invalidServerNameProblem(scope.name));

  const f = new Fields(raw, path, error);
  f.unknownKeys(SERVER_KEYS, warn);

  // Where it executes.
  let executionEnvironmentId: string;
  if (scope.environmentId !== null) {
    executionEnvironmentId = scope.environmentId;
    const declared = f.string('environment_id');
    if (declared !== null && declared !== scope.environmentId) {
      error(
        f.at('environment_id'),
        `environment_id is not supported for servers contributed by environment \`${scope.environmentId}\``,
      );
    }
  } else {
    executionEnvironmentId = f.string('environment_id') ?? 'local';
  }

  // Transport, inferred as Codex does.
  let transportKind: Transport | null = null;
  if (f.has('command')) transportKind = 'stdio';
  else if (f.has('url')) transportKind = 'streamable_http';
  else error(path, 'invalid transport');

  let transport: TransportConfig | null = null;
  let oauth: OAuthClientConfig | null = null;
  let oauthResource: string | null = null;
  if (transportKind !== null) {
    for (const field of REJECTED_FIELDS[transportKind]) {
      if (f.has(field)) error(f.at(field), `${field} is not supported for ${transportKind}`);
    }
  }
  if (transportKind === 'stdio') {
    const command = f.string('command');
    const args = f.stringArray('args') ?? [];
    const env = f.stringMap('env') ?? {};
    const envVars = readEnvVars(f, executionEnvironmentId, error, warn, untrusted);
    const cwd = f.string('cwd');
    if (command !== null) transport = { type: 'stdio', command, args, env, envVars, cwd };
  } else if (transportKind === 'streamable_http') {
    const url = f.string('url');
    const bearerTokenEnvVar = f.string('bearer_token_env_var');
    const httpHeaders = f.stringMap('http_headers') ?? {};
    const envHttpHeaders = f.stringMap('env_http_headers') ?? {};
    if (untrusted !== null && scope.environmentId !== null) {
      if (bearerTokenEnvVar !== null && !untrusted.envVars.includes(bearerTokenEnvVar)) {
        error(f.at('bearer_token_env_var'), notLent(bearerTokenEnvVar, scope.environmentId));
      }
      for (const [header, variable] of Object.entries(envHttpHeaders)) {
        if (!untrusted.envVars.includes(variable)) {
          error([...f.at('env_http_headers'), header], notLent(variable, scope.environmentId));
        }
      }
    }
    const helper = f.string('http_headers_helper');
    if (helper !== null) {
      if (helper.trim() === '') {
        error(f.at('http_headers_helper'), 'http_headers_helper must not be empty');
      } else if (executionEnvironmentId !== 'local') {
        error(
          f.at('http_headers_helper'),
          'http_headers_helper is only supported for local MCP servers',
        );
      }
    }
    f.enumeration('auth', ['oauth', 'chatgpt']);
    oauth = readOAuth(f, error, warn, { untrusted, environmentId: scope.environmentId });
    oauthResource = f.string('oauth_resource');
    if (url !== null) {
      transport = { type: 'streamable_http', url, bearerTokenEnvVar, httpHeaders, envHttpHeaders };
    }
  }

  const enabled = f.boolean('enabled', true);
  const required = f.boolean('required', false);
  const supportsParallelToolCalls = f.boolean('supports_parallel_tool_calls', false);

  const startupMs = f.nonNegativeInteger('startup_timeout_ms');
  const startupSec = readSeconds(f, 'startup_timeout_sec', error);
  const startupTimeoutMs = startupSec ?? startupMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  const toolTimeoutMs = readSeconds(f, 'tool_timeout_sec', error) ?? DEFAULT_TOOL_TIMEOUT_MS;
  // A tool call that runs as a task (docs/tool-calls.md): the whole task; absent: tool_timeout_sec.
  const taskTimeoutMs = readSeconds(f, 'task_timeout_sec', error);

  const defaultToolsApprovalMode =
    f.enumeration('default_tools_approval_mode', APPROVAL_MODES) ?? 'auto';
  const enabledTools = f.stringArray('enabled_tools');
  const disabledTools = f.stringArray('disabled_tools');
  const scopes = f.stringArray('scopes');
  const omit = f.stringArray('omit_tools_from');
  omit?.forEach((surface, index) => {
    const allowed = ['code_mode', 'deferred', 'direct'];
    if (!allowed.includes(surface)) {
      error(
        [...f.at('omit_tools_from'), index],
        `unknown variant \`${surface}\`, ${expectedOneOf(allowed)}`,
      );
    }
  });
  if (untrusted !== null && !untrusted.oauth && scope.environmentId !== null) {
    for (const key of OAUTH_KEYS) {
      if (f.has(key)) error(f.at(key), oauthNotLent(key, scope.environmentId));
    }
  }
  const tools = readTools(f, warn);
  const supervision = readSupervision(f, error);
  const protocolVersion = f.enumeration('protocol_version', PROTOCOL_VERSION_SETTINGS) ?? 'auto';

  if (sink.errorCount() > 0 || transport === null) return fail(enabled, required);
  return {
    server: {
      scope,
      transport,
      executionEnvironmentId,
      enabled,
      required,
      startupTimeoutMs,
      toolTimeoutMs,
      ...(taskTimeoutMs !== null ? { taskTimeoutMs } : {}),
      enabledTools,
      disabledTools,
      scopes,
      oauth,
      oauthResource,
      supportsParallelToolCalls,
      defaultToolsApprovalMode,
      tools,
      supervision,
      protocolVersion,
      location,
      ...(untrusted !== null ? { untrusted } : {}),
    },
    invalid: null,
  };
}

function readSeconds(
  f: Fields,
  key: string,
  error: (path: KeyPath, problem: string) => void,
): number | null {
  const seconds = f.number(key);
  if (seconds === null) return null;
  const converted = secondsToMs(seconds);
  if ('problem' in converted) {
    error(f.at(key), converted.problem);
    return null;
  }
  return converted.ms;
}

/** Keys that make a registration use OAuth credentials stored on this machine. */
const OAUTH_KEYS = ['auth', 'oauth', 'scopes', 'oauth_resource'] as const;

function oauthNotLent(key: string, environmentId: string): string {
  return `\`${key}\` would use this machine's OAuth credentials, which are not lent to registrations from the remote host's own config (to lend them, set \`remote_allow_oauth = true\` in [environments.${environmentId}] in this machine's config)`;
}

function readEnvVars(
  f: Fields,
  executionEnvironmentId: string,
  error: (path: KeyPath, problem: string) => void,
  warn: (path: KeyPath, problem: string) => void,
  untrusted: RemoteTrust | null,
): EnvVarRef[] {
  const lent = (name: string) => untrusted === null || untrusted.envVars.includes(name);
  if (!f.has('env_vars')) return [];
  const value = f.table['env_vars'];
  const path = f.at('env_vars');
  if (!Array.isArray(value)) {
    error(path, `expected an array of strings or tables, found ${typeName(value)}`);
    return [];
  }
  const refs: EnvVarRef[] = [];
  value.forEach((item: unknown, index) => {
    const itemPath = [...path, index];
    if (typeof item === 'string') {
      if (!lent(item)) error(itemPath, notLent(item, executionEnvironmentId));
      refs.push({ name: item, source: null });
      return;
    }
    if (!isTable(item)) {
      error(itemPath, `expected a string or a table, found ${typeName(item)}`);
      return;
    }
    const entry = new Fields(item, itemPath, error);
    entry.unknownKeys(new Set(['name', 'source']), warn);
    const name = entry.string('name');
    if (!entry.has('name')) error(itemPath, 'missing field `name`');
    let source: EnvVarRef['source'] = null;
    const rawSource = entry.string('source');
    if (rawSource !== null) {
      if (rawSource === 'local' || rawSource === 'remote') source = rawSource;
      else {
        error(
          entry.at('source'),
          `unsupported env_vars source \`${rawSource}\`; expected \`local\` or \`remote\``,
        );
      }
    }
    if (name !== null && source === 'remote' && executionEnvironmentId === 'local') {
      error(
        entry.at('source'),
        `env_vars entry \`${name}\` uses source \`remote\`, which requires remote MCP stdio`,
      );
    }
    if (name !== null && source !== 'remote' && !lent(name)) {
      error(
        entry.has('source') ? entry.at('source') : itemPath,
        notLent(name, executionEnvironmentId),
      );
    }
    if (name !== null) refs.push({ name, source });
  });
  return refs;
}

function readTools(
  f: Fields,
  warn: (path: KeyPath, problem: string) => void,
): Record<string, ToolOverrideConfig> {
  const tools = f.subTable('tools');
  if (tools === null) return {};
  const entries: [string, ToolOverrideConfig][] = [];
  for (const toolName of Object.keys(tools.table)) {
    const tool = tools.subTable(toolName);
    if (tool === null) continue;
    tool.unknownKeys(new Set(['approval_mode', 'output_token_limit']), warn);
    const approvalMode = tool.enumeration('approval_mode', APPROVAL_MODES);
    const outputTokenLimit = tool.nonNegativeInteger('output_token_limit');
    entries.push([toolName, { approvalMode, outputTokenLimit }]);
  }
  return Object.fromEntries(entries);
}
