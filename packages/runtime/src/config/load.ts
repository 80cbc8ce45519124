/**
 * Loads `config.toml` into {@link McprtConfig}: smol-toml parses; `server.ts`,
 * `environment.ts` and `views.ts` validate tables. Bad TOML throws {@link ConfigParseError}; semantic problems
 * never throw (unless `strict`): a bad server or environment fails alone, with diagnostics that
 * read `file:line:column: keyPath: problem`.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { ConfigInvalidError, ConfigParseError } from '../errors.js';
import { Context, Sink, sortByPosition } from './diagnostics.js';
import { validateEnvironment } from './environment.js';
import { DEFAULT_HISTORY, readHistoryConfig } from './history.js';
import { DEFAULT_SANDBOX_LAUNCHER, readSandboxLauncher } from './sandboxLauncher.js';
import type { Table } from './fields.js';
import { Fields } from './fields.js';
import { createLocator } from './locate.js';
import type { KeyPath } from './locate.js';
import type { ConfigMode } from './paths.js';
import { validateServer } from './server.js';
import type { ServerResult } from './server.js';
import { readServe, readViews } from './views.js';
import { DEFAULT_SERVE_CONFIG } from './viewTypes.js';
import type {
  ConfigLocation,
  EnvironmentConfig,
  InvalidServerConfig,
  McprtConfig,
  OAuthCredentialsStoreMode,
  ServerConfig,
} from './types.js';

export interface LoadConfigOptions {
  /** Path of `config.toml`; made absolute. A missing file is an empty config. */
  readonly file: string;
  /** `codex`: other top-level keys of a Codex config are ignored silently. Default `mcprt`. */
  readonly mode?: ConfigMode | undefined;
  /** Any diagnostic (unknown keys included) throws {@link ConfigInvalidError}. */
  readonly strict?: boolean | undefined;
  /** Source text to use instead of reading `file`. */
  readonly text?: string | undefined;
}

const TOP_LEVEL_KEYS = new Set([
  'mcp_servers',
  'environments',
  'mcp_oauth_credentials_store',
  'mcp_oauth_callback_port',
  'mcp_oauth_callback_url',
  'history',
  'sandbox_launcher',
  'views',
  'serve',
]);

const CREDENTIALS_STORES = ['auto', 'keyring', 'file'] as const;

function emptyConfig(file: string): McprtConfig {
  return {
    file,
    environments: [],
    servers: [],
    invalidServers: [],
    invalidEnvironments: [],
    warnings: [],
    mcpOAuthCredentialsStore: 'auto',
    mcpOAuthCallbackPort: null,
    mcpOAuthCallbackUrl: null,
    history: DEFAULT_HISTORY,
    sandboxLauncher: DEFAULT_SANDBOX_LAUNCHER,
    views: [],
    invalidViews: [],
    serve: DEFAULT_SERVE_CONFIG,
  };
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    const detail = err instanceof Error ? err.message : String(err);
    throw new ConfigParseError(file, null, null, `${file}: cannot read config: ${detail}`, {
      cause: err,
    });
  }
}

/** Parses TOML text, turning smol-toml's error into a {@link ConfigParseError}. */
export function parseToml(file: string, text: string): Table {
  try {
    return parse(text);
  } catch (err) {
    if (err instanceof TomlError) {
      const first = err.message.split('\n')[0] ?? '';
      throw new ConfigParseError(
        file,
        err.line,
        err.column,
        `${file}:${err.line}:${err.column}: invalid TOML: ${first}`,
        { cause: err },
      );
    }
    throw err;
  }
}

export function loadConfig(opts: LoadConfigOptions): McprtConfig {
  const file = resolve(opts.file);
  const mode = opts.mode ?? 'mcprt';
  const text = opts.text ?? readText(file);
  if (text === null) return emptyConfig(file);
  const doc = parseToml(file, text);

  const ctx = new Context(file, createLocator(text));
  const top = new Sink(ctx);
  const topWarn = (p: KeyPath, problem: string): void => top.warn(p, problem);
  const root = new Fields(doc, [], topWarn);

  if (mode === 'mcprt') root.unknownKeys(TOP_LEVEL_KEYS, topWarn);
  const mcpOAuthCredentialsStore: OAuthCredentialsStoreMode =
    root.enumeration('mcp_oauth_credentials_store', CREDENTIALS_STORES) ?? 'auto';
  const mcpOAuthCallbackPort = root.integerInRange(
    'mcp_oauth_callback_port',
    1,
    65535,
    'mcp_oauth_callback_port',
  );
  const mcpOAuthCallbackUrl = root.string('mcp_oauth_callback_url');
  const history = mode === 'mcprt' ? readHistoryConfig(root, topWarn) : DEFAULT_HISTORY;
  const sandboxLauncher = readSandboxLauncher(root, topWarn);

  const servers: ServerConfig[] = [];
  const invalidServers: InvalidServerConfig[] = [];
  const collect = (result: ServerResult): void => {
    if (result.server !== null) servers.push(result.server);
    if (result.invalid !== null) invalidServers.push(result.invalid);
  };

  const threadWide = root.subTable('mcp_servers');
  if (threadWide !== null) {
    for (const [name, raw] of Object.entries(threadWide.table)) {
      const scope = { environmentId: null, name };
      collect(validateServer(ctx, scope, ['mcp_servers', name], raw, null));
    }
  }

  const environments: EnvironmentConfig[] = [];
  const invalidEnvironments: { id: string; error: string; location: ConfigLocation }[] = [];
  const environmentTables = root.subTable('environments');
  if (environmentTables !== null) {
    for (const [id, raw] of Object.entries(environmentTables.table)) {
      const result = validateEnvironment(ctx, id, raw);
      if (result.environment !== null) environments.push(result.environment);
      else {
        invalidEnvironments.push({
          id,
          error: result.error?.message ?? '',
          location: ctx.location(['environments', id]),
        });
      }
      for (const [name, serverRaw] of Object.entries(result.servers ?? {})) {
        const scope = { environmentId: id, name };
        const path = ['environments', id, 'mcp_servers', name];
        collect(validateServer(ctx, scope, path, serverRaw, result.problem));
      }
    }
  }

  // Views and `[serve]` are mcprt's own tables, read in both modes (Codex has neither).
  const views = readViews(ctx, root);
  const serve = readServe(ctx, root, views);

  if (opts.strict === true && ctx.all.length > 0) {
    const all = sortByPosition(ctx.all);
    throw new ConfigInvalidError(all.map((d) => ({ ...d, severity: 'error' as const })));
  }

  return {
    file,
    environments,
    servers,
    invalidServers,
    invalidEnvironments,
    warnings: sortByPosition(ctx.warnings),
    mcpOAuthCredentialsStore,
    mcpOAuthCallbackPort,
    mcpOAuthCallbackUrl,
    history,
    sandboxLauncher,
    views: views.views,
    invalidViews: views.invalidViews,
    serve,
  };
}
