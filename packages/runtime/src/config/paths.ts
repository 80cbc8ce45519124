/**
 * Where the config file lives: `<mcprt home>/config.toml` (home = `--home`, else `$MCPRT_HOME`,
 * else `~/.mcprt`), or `<codex home>/config.toml` when reading a Codex home in place.
 */

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `mcprt`: the runtime's own file; `codex`: a Codex `config.toml` read in place. */
export type ConfigMode = 'mcprt' | 'codex';

export interface ResolveConfigFileOptions {
  /** Explicit mcprt home (`--home`). */
  readonly home?: string | undefined;
  /** Codex home (`--codex-home`): read `<codexHome>/config.toml` in Codex mode. */
  readonly codexHome?: string | undefined;
  /** Defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv | undefined;
}

export interface ResolvedConfigFile {
  /** Absolute path of `config.toml` (it may not exist). */
  readonly file: string;
  readonly mode: ConfigMode;
}

function userHome(env: NodeJS.ProcessEnv): string {
  const home = env['HOME'];
  return home !== undefined && home !== '' ? home : homedir();
}

/** Expands a leading `~` / `~/` and makes the path absolute. */
function expand(dir: string, env: NodeJS.ProcessEnv): string {
  if (dir === '~') return userHome(env);
  if (dir.startsWith('~/')) return join(userHome(env), dir.slice(2));
  return resolve(dir);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value !== '' ? value : undefined;
}

export function resolveConfigFile(opts: ResolveConfigFileOptions = {}): ResolvedConfigFile {
  const env = opts.env ?? process.env;
  const codexHome = nonEmpty(opts.codexHome);
  if (codexHome !== undefined) {
    return { file: join(expand(codexHome, env), 'config.toml'), mode: 'codex' };
  }
  const home = nonEmpty(opts.home) ?? nonEmpty(env['MCPRT_HOME']);
  const dir = home !== undefined ? expand(home, env) : join(userHome(env), '.mcprt');
  return { file: join(dir, 'config.toml'), mode: 'mcprt' };
}
