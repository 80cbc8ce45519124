/**
 * The environment a stdio server gets. Local children start from an empty environment plus an
 * allow-list copied from this process, plus `env_vars` (read here), plus literal `env` (wins).
 * Servers in other environments get only what is forwarded (`env_vars` not sourced `remote`, and
 * literal `env`); their base environment is the executor's own.
 */

import type { StdioTransportConfig } from '../config/types.js';

/** Variables a local stdio child inherits from this process (Codex's unix list). */
export const STDIO_ENV_ALLOW_LIST = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  '__CF_USER_TEXT_ENCODING',
  'LANG',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'TZ',
] as const;

export function buildStdioEnv(
  transport: StdioTransportConfig,
  isLocal: boolean,
  processEnv: NodeJS.ProcessEnv,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (isLocal) {
    for (const name of STDIO_ENV_ALLOW_LIST) {
      const value = processEnv[name];
      if (value !== undefined) env[name] = value;
    }
  }
  for (const ref of transport.envVars) {
    if (ref.source === 'remote') continue;
    const value = processEnv[ref.name];
    if (value !== undefined) env[ref.name] = value;
  }
  Object.assign(env, transport.env);
  return env;
}

/** Values of every variable this server's launch reads: part of its connection identity. */
export function referencedEnvValues(
  names: readonly string[],
  processEnv: NodeJS.ProcessEnv,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of names) out[name] = processEnv[name] ?? null;
  return out;
}
