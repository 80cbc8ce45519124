/**
 * Which gateways a `mcprt serve` runs under. Each gateway adds its host and config file to
 * `MCPRT_SERVE_CHAIN` (the runtime passes it to every stdio server it starts, here and in ssh
 * and exec environments: launch/childEnv.ts), so a gateway started — directly or through other
 * gateways, across ssh too — by a gateway of the same config on the same host knows it: that
 * config lists `mcprt serve` on itself and would start gateways without end (docs/gateway.md).
 * Chaining gateways of different configs stays allowed, and so does a gateway of the same path on
 * another host (hostIdentity.ts). A config is named by its real path, so one reached through a
 * symlinked home is still the same config.
 */

import { realPathIfAny } from '@mcprt/base';
import { SERVE_CHAIN_ENV } from '@mcprt/runtime';

import { hostIdentity } from './hostIdentity.js';

/** One gateway above this process: its host's label and its config file. */
interface ChainEntry {
  readonly host: string;
  readonly config: string;
}

/**
 * The gateways above this process (an unreadable value: none). A bare path is an entry of an
 * older mcprt, which passed the chain to local servers only: this host.
 */
function chainOf(env: NodeJS.ProcessEnv, host: string): ChainEntry[] {
  const text = env[SERVE_CHAIN_ENV];
  if (text === undefined || text === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.flatMap((v: unknown): ChainEntry[] => {
      if (typeof v === 'string') return [{ host, config: v }];
      if (typeof v !== 'object' || v === null) return [];
      const { host: h, config: c } = v as Record<string, unknown>;
      return typeof h === 'string' && typeof c === 'string' ? [{ host: h, config: c }] : [];
    });
  } catch {
    return [];
  }
}

/**
 * The refusal text when a gateway of `configFile` on this host is already above this process;
 * otherwise `undefined`, and `env` now names this gateway too (for the servers it starts).
 */
export function joinServeChain(configFile: string, env: NodeJS.ProcessEnv): string | undefined {
  const host = hostIdentity(env);
  const chain = chainOf(env, host);
  const real = realPathIfAny(configFile) ?? configFile;
  if (chain.some((e) => e.host === host && (e.config === real || e.config === configFile))) {
    return (
      `serve: not starting: this process was started by a gateway serving the same config ` +
      `(${configFile}) on this host, which lists mcprt serve on itself; that would start ` +
      `gateways without end. Remove that server from ${configFile}.`
    );
  }
  env[SERVE_CHAIN_ENV] = JSON.stringify([...chain, { host, config: real }]);
  return undefined;
}
