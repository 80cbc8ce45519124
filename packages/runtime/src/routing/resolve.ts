/**
 * Selecting a registration by `(name, environmentId?)`, exactly as the brief's routing table:
 * an explicit environment picks that scope (unknown environment, environment not selected by the
 * thread, and no such server there are distinct typed errors); an omitted environment follows
 * the legacy name-only rule — the thread-wide registration if there is one, else the first
 * environment in the thread's environment order that has the name. Pure logic.
 */

import {
  EnvironmentNotSelectedError,
  UnknownEnvironmentError,
  UnknownServerError,
} from '../errors.js';
import type { RegistrationScope } from '../scope.js';

export interface RoutingTable {
  readonly threadId: string;
  /** Every registration of the thread (any order). */
  readonly scopes: readonly RegistrationScope[];
  /** True for `local` and every configured environment id. */
  readonly isConfiguredEnvironment: (id: string) => boolean;
  /** The thread's selected environments, in the thread's order. */
  readonly selectedEnvironments: readonly string[];
}

export const ALWAYS_SELECTED_ENVIRONMENT = 'local';

export function resolveScope(
  table: RoutingTable,
  name: string,
  environmentId?: string | null,
): RegistrationScope {
  if (environmentId !== undefined && environmentId !== null) {
    if (!table.isConfiguredEnvironment(environmentId)) {
      throw new UnknownEnvironmentError(environmentId);
    }
    if (
      environmentId !== ALWAYS_SELECTED_ENVIRONMENT &&
      !table.selectedEnvironments.includes(environmentId)
    ) {
      throw new EnvironmentNotSelectedError(environmentId, table.threadId);
    }
    const exact = table.scopes.find((s) => s.name === name && s.environmentId === environmentId);
    if (!exact) throw new UnknownServerError(name, environmentId);
    return exact;
  }
  const threadWide = table.scopes.find((s) => s.name === name && s.environmentId === null);
  if (threadWide) return threadWide;
  for (const env of table.selectedEnvironments) {
    const match = table.scopes.find((s) => s.name === name && s.environmentId === env);
    if (match) return match;
  }
  throw new UnknownServerError(name, null);
}
