/**
 * Which registrations a session has, and which survive a change — pure rules. Sources: this
 * machine's config (valid and invalid servers), then the environments' own registrations for
 * scopes this machine's config does not define, restricted to thread-wide scopes and the selected
 * environments, ordered thread-wide first, then by the session's environment order. Survival: an
 * unchanged launch keeps its process; on a reload a failed or cancelled registration is retried
 * and a changed environment restarts the servers that execute in it.
 */

import type { McprtConfig } from '../config/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import type { Registration } from './registration.js';
import type { RegistrationSource } from './registrationPlan.js';

export interface SourceSelection {
  /** The session's environments, in routing order. */
  readonly environmentOrder: readonly string[];
  /** The host's filter of registrations (all when absent). */
  readonly filter?: ((scope: RegistrationScope) => boolean) | undefined;
}

/**
 * The session's sources in order: this machine's config (valid and invalid servers), then the
 * environments' own registrations for scopes this machine's config does not define, restricted to
 * thread-wide scopes and the selected environments.
 */
export function sessionSources(
  config: McprtConfig,
  remote: readonly RegistrationSource[],
  selection: SourceSelection,
): RegistrationSource[] {
  const order = selection.environmentOrder;
  const inScope = (scope: RegistrationScope) =>
    (scope.environmentId === null || order.includes(scope.environmentId)) &&
    (selection.filter?.(scope) ?? true);
  const local: RegistrationSource[] = [
    ...config.servers.map((c) => ({ kind: 'valid' as const, config: c })),
    ...config.invalidServers.map((c) => ({ kind: 'invalid' as const, config: c })),
  ];
  // This machine's config wins over a remote host's own for the same scope.
  const localKeys = new Set(local.map((s) => scopeKey(s.config.scope)));
  const sources = [...local, ...remote.filter((s) => !localKeys.has(scopeKey(s.config.scope)))];
  const rank = (s: RegistrationSource) => {
    const env = s.config.scope.environmentId;
    return env === null ? -1 : order.indexOf(env);
  };
  return sources.filter((s) => inScope(s.config.scope)).sort((a, b) => rank(a) - rank(b));
}

/** Same launch (plan, environment) and same enabled state: the process can stay. */
export function sameRegistration(current: Registration, candidate: Registration): boolean {
  return current.identity === candidate.identity && current.enabled === candidate.enabled;
}

/**
 * On a config reload, unchanged and healthy registrations keep their process. A failed or
 * cancelled one is retried (Codex), and a changed environment (a new object in the new registry)
 * restarts the servers that execute in it.
 */
export function keepsProcessOnReload(
  current: Registration,
  candidate: Registration,
  previous: EnvironmentRegistry,
  next: EnvironmentRegistry,
): boolean {
  const status = current.status.startupStatus;
  const envId = current.config?.executionEnvironmentId;
  return (
    status !== 'failed' &&
    status !== 'cancelled' &&
    (envId === undefined || previous.get(envId) === next.get(envId)) &&
    sameRegistration(current, candidate)
  );
}
