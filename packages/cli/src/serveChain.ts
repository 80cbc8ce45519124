/**
 * Which gateways a `mcprt serve` runs under. Each gateway adds its config file to
 * `MCPRT_SERVE_CHAIN` (the runtime passes it to local stdio servers, launch/childEnv.ts), so a
 * gateway started — directly or through other gateways — by a gateway of the same config knows
 * it: that config lists `mcprt serve` on itself and would start gateways without end
 * (docs/gateway.md). Chaining gateways of different configs stays allowed. A config is named by
 * its real path, so one reached through a symlinked home is still the same config.
 */

import { realPathIfAny } from '@mcprt/base';
import { SERVE_CHAIN_ENV } from '@mcprt/runtime';

/** The config files of the gateways above this process (an unreadable value: none). */
function chainOf(env: NodeJS.ProcessEnv): string[] {
  const text = env[SERVE_CHAIN_ENV];
  if (text === undefined || text === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The refusal text when a gateway of `configFile` is already above this process; otherwise
 * `undefined`, and `env` now names this gateway too (for the servers it starts).
 */
export function joinServeChain(configFile: string, env: NodeJS.ProcessEnv): string | undefined {
  const chain = chainOf(env);
  const real = realPathIfAny(configFile) ?? configFile;
  if (chain.includes(real) || chain.includes(configFile)) {
    return (
      `serve: not starting: this process was started by a gateway serving the same config ` +
      `(${configFile}), which lists mcprt serve on itself; that would start gateways without ` +
      `end. Remove that server from ${configFile}.`
    );
  }
  env[SERVE_CHAIN_ENV] = JSON.stringify([...chain, real]);
  return undefined;
}
