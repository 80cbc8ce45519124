/**
 * The environment a stdio server gets. Local children start from an empty environment plus an
 * allow-list copied from this process, plus `env_vars` (read here), plus literal `env` (wins).
 * Servers in other environments get only what is forwarded (`env_vars` not sourced `remote`, and
 * literal `env`); their base environment is the executor's own. mcprt's `MCPRT_SERVE_CHAIN` goes
 * to both.
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

/**
 * mcprt's own variable every stdio child gets beside Codex's list, forwarded into ssh and exec
 * environments too: the `mcprt serve` gateways it runs under (a JSON array of host labels and
 * config paths). A gateway started under a gateway of its own config on its own host refuses to
 * run (docs/gateway.md): a config that lists `mcprt serve` on itself would otherwise start
 * gateways without end.
 */
export const SERVE_CHAIN_ENV = 'MCPRT_SERVE_CHAIN';

export function buildStdioEnv(
  transport: StdioTransportConfig,
  isLocal: boolean,
  processEnv: NodeJS.ProcessEnv,
): Record<string, string> {
  // Names come from config (a remote host's too): a Map, never `env[name] = …`.
  const env = new Map<string, string>();
  if (isLocal) {
    for (const name of STDIO_ENV_ALLOW_LIST) {
      const value = processEnv[name];
      if (value !== undefined) env.set(name, value);
    }
  }
  // Every environment, so a gateway reached over ssh or exec knows the gateways above it.
  const chain = processEnv[SERVE_CHAIN_ENV];
  if (chain !== undefined) env.set(SERVE_CHAIN_ENV, chain);
  for (const ref of transport.envVars) {
    if (ref.source === 'remote') continue;
    const value = processEnv[ref.name];
    if (value !== undefined) env.set(ref.name, value);
  }
  for (const [name, value] of Object.entries(transport.env)) env.set(name, value);
  return Object.fromEntries(env);
}

/** Values of every variable this server's launch reads: part of its connection identity. */
export function referencedEnvValues(
  names: readonly string[],
  processEnv: NodeJS.ProcessEnv,
): Record<string, string | null> {
  return Object.fromEntries(names.map((name) => [name, processEnv[name] ?? null]));
}
