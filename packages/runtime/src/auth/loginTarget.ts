/**
 * What a login or logout by name acts on: the registration (`environmentId` selects one, else
 * the thread-wide registration, else the first environment in config order that has the name),
 * the `fetch` its environment reaches HTTP with, and the static headers sent to the server.
 * Texts are Codex's (`No MCP server named '…' found.`).
 */

import type { FetchLike } from '@modelcontextprotocol/client';

import type { McprtConfig, ServerConfig } from '../config/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import { UnknownEnvironmentError } from '../errors.js';
import type { RegistrationScope } from '../scope.js';
import { OAuthLoginError } from './errors.js';

export function findServerConfig(
  config: McprtConfig,
  name: string,
  environmentId: string | null | undefined,
  isConfiguredEnvironment: (id: string) => boolean,
  what: 'login' | 'logout',
): ServerConfig {
  if (
    environmentId !== undefined &&
    environmentId !== null &&
    !isConfiguredEnvironment(environmentId)
  )
    throw new UnknownEnvironmentError(environmentId);
  const matches = (scope: RegistrationScope) =>
    scope.name === name &&
    (environmentId === undefined || environmentId === null
      ? true
      : scope.environmentId === environmentId);
  const all = [...config.servers, ...config.invalidServers].filter((s) => matches(s.scope));
  const pick =
    environmentId !== undefined && environmentId !== null
      ? all[0]
      : (all.find((s) => s.scope.environmentId === null) ??
        config.environments
          .map((e) => all.find((s) => s.scope.environmentId === e.id))
          .find(Boolean));
  const suffix = what === 'logout' ? ' in configuration' : '';
  if (!pick) {
    throw new OAuthLoginError(
      environmentId !== undefined && environmentId !== null
        ? `No MCP server named '${name}' found in environment \`${environmentId}\`.`
        : `No MCP server named '${name}' found${suffix}.`,
      { reason: 'target' },
    );
  }
  if (!('transport' in pick)) throw new OAuthLoginError(pick.error, { reason: 'target' });
  if (pick.transport.type !== 'streamable_http') {
    throw new OAuthLoginError(
      what === 'login'
        ? 'OAuth login is only supported for streamable HTTP servers.'
        : 'OAuth logout is only supported for streamable_http transports.',
      { reason: 'target' },
    );
  }
  return pick;
}

/** The `fetch` of the server's execution environment (ssh: through the tunnel). */
export function environmentFetch(registry: EnvironmentRegistry, config: ServerConfig): FetchLike {
  const environment = registry.get(config.executionEnvironmentId);
  if (!environment) {
    throw new OAuthLoginError(
      `MCP server \`${config.scope.name}\` references unknown environment id \`${config.executionEnvironmentId}\``,
    );
  }
  const access = environment.http();
  if (access.kind === 'unsupported') throw new OAuthLoginError(access.reason);
  return access.kind === 'tunnel' ? (access.fetch as FetchLike) : (url, init) => fetch(url, init);
}

/** `http_headers` plus `env_http_headers` read now (unset or blank variables are omitted). */
export function staticHeaders(
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  if (config.transport.type !== 'streamable_http') return {};
  const headers = new Map(Object.entries(config.transport.httpHeaders));
  for (const [header, variable] of Object.entries(config.transport.envHttpHeaders)) {
    const value = env[variable];
    if (value !== undefined && value.trim() !== '') headers.set(header, value);
  }
  return Object.fromEntries(headers);
}
