/**
 * Validation of one `[environments.<id>]` table: Codex's environment-id rules and texts, then the
 * `exec` / `ssh` keys (and `description`, common to both). Its `mcp_servers` sub-table is
 * returned for the server validator.
 */

import { posix, win32 } from 'node:path';
import type { Context } from './diagnostics.js';
import { Sink } from './diagnostics.js';
import type { Table } from './fields.js';
import { Fields, isTable, typeName } from './fields.js';
import type { KeyPath } from './locate.js';
import type { ConfigDiagnostic, EnvironmentConfig } from './types.js';

const ENVIRONMENT_COMMON_KEYS = ['type', 'cwd', 'description', 'mcp_servers'];
const ENVIRONMENT_KEYS: Record<'exec' | 'ssh', ReadonlySet<string>> = {
  exec: new Set([...ENVIRONMENT_COMMON_KEYS, 'program', 'args', 'http']),
  ssh: new Set([
    ...ENVIRONMENT_COMMON_KEYS,
    'host',
    'user',
    'port',
    'identity_file',
    'ssh_options',
    'remote_allow_env_vars',
    'remote_allow_oauth',
  ]),
};

function isAbsolutePath(path: string): boolean {
  return posix.isAbsolute(path) || win32.isAbsolute(path);
}

/** Codex's environment-id rules (`exec-server/src/environment_toml.rs`), first failure wins. */
export function environmentIdProblem(id: string): string | null {
  if (id === '') return 'environment id cannot be empty';
  if (id.trim() !== id) return `environment id \`${id}\` must not contain surrounding whitespace`;
  if (id === 'local' || id.toLowerCase() === 'none') return `environment id \`${id}\` is reserved`;
  if ([...id].length > 64) return `environment id \`${id}\` cannot be longer than 64 characters`;
  if (!/^[A-Za-z0-9_-]+$/.test(id)) {
    return `environment id \`${id}\` must contain only ASCII letters, numbers, '-' or '_'`;
  }
  return null;
}

export interface EnvironmentResult {
  readonly environment: EnvironmentConfig | null;
  /** The first error's problem text, when the environment is invalid. */
  readonly problem: string | null;
  readonly error: ConfigDiagnostic | null;
  /** The `mcp_servers` sub-table, when it is a table. */
  readonly servers: Table | null;
}

export function validateEnvironment(ctx: Context, id: string, raw: unknown): EnvironmentResult {
  const sink = new Sink(ctx);
  const error = (p: KeyPath, problem: string): void => sink.error(p, problem);
  const warn = (p: KeyPath, problem: string): void => sink.warn(p, problem);
  const path: KeyPath = ['environments', id];
  const location = ctx.location(path);
  const done = (
    environment: EnvironmentConfig | null,
    servers: Table | null,
  ): EnvironmentResult => {
    const first = sink.firstError() ?? null;
    return {
      environment: first === null ? environment : null,
      problem: first?.problem ?? null,
      error: first,
      servers,
    };
  };

  const idProblem = environmentIdProblem(id);
  if (idProblem !== null) error(path, idProblem);
  if (!isTable(raw)) {
    error(path, `expected a table, found ${typeName(raw)}`);
    return done(null, null);
  }
  const f = new Fields(raw, path, error);

  let servers: Table | null = null;
  const serversTable = f.subTable('mcp_servers');
  if (serversTable !== null) servers = serversTable.table;

  const cwd = f.string('cwd');
  if (cwd !== null && !isAbsolutePath(cwd)) {
    error(f.at('cwd'), `environment \`${id}\` cwd must be an absolute path`);
  }
  // What the environment is, for people and models (views name it; docs/tool-shaping.md).
  const description = f.string('description');

  const type = f.has('type') ? f.table['type'] : undefined;
  if (type === 'exec') {
    f.unknownKeys(ENVIRONMENT_KEYS.exec, warn);
    const program = f.string('program');
    if (!f.has('program')) error(path, 'missing field `program`');
    else if (program !== null && program.trim() === '') {
      error(f.at('program'), `environment \`${id}\` program cannot be empty`);
    }
    const args = f.stringArray('args') ?? [];
    const http = f.enumeration('http', ['direct', 'unsupported']) ?? 'unsupported';
    return done(
      program === null
        ? null
        : { id, type: 'exec', program, args, cwd, http, description, location },
      servers,
    );
  }
  if (type === 'ssh') {
    f.unknownKeys(ENVIRONMENT_KEYS.ssh, warn);
    const host = f.string('host');
    if (!f.has('host')) error(path, 'missing field `host`');
    else if (host !== null && host.trim() === '') {
      error(f.at('host'), `environment \`${id}\` host cannot be empty`);
    }
    const user = f.string('user');
    const port = f.integerInRange('port', 1, 65535, `environment \`${id}\` port`);
    const identityFile = f.string('identity_file');
    const sshOptions = f.stringArray('ssh_options') ?? [];
    const lent = f.has('remote_allow_env_vars') || f.has('remote_allow_oauth');
    const remoteTrust = {
      envVars: f.stringArray('remote_allow_env_vars') ?? [],
      oauth: f.boolean('remote_allow_oauth', false),
    };
    return done(
      host === null
        ? null
        : {
            id,
            type: 'ssh',
            host,
            user,
            port,
            identityFile,
            sshOptions,
            cwd,
            description,
            location,
            ...(lent ? { remoteTrust } : {}),
          },
      servers,
    );
  }
  const shown = type === undefined ? '(none)' : typeof type === 'string' ? type : String(type);
  error(
    f.has('type') ? f.at('type') : path,
    `environment \`${id}\` has unsupported type \`${shown}\`; expected \`exec\` or \`ssh\``,
  );
  return done(null, servers);
}
