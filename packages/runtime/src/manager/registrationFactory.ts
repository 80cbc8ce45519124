/**
 * How a session makes its registrations: each gets the session's context (environments, the cwd
 * of each selected environment, whether an environment is selected, OAuth) and hooks that turn
 * its transitions into the session's events — `startupStatus` for the current registration of a
 * scope (and for one removed from the configuration), `inventoryChanged`, and elicitation
 * requests relayed with the registration's scope.
 */

import type { ConnectionAuth } from '../connection/mcpClient.js';
import type { RevisionVerdicts } from '../connection/revisionVerdicts.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import type { ElicitationRelay } from './elicitations.js';
import { Registration } from './registration.js';
import type { RegistrationSource } from './registrationPlan.js';
import type { RegistrationSet } from './registrationSet.js';
import type { RegistrationScope } from '../scope.js';
import type { SessionEnvironment } from './sessionTypes.js';
import type { StartupStatusEvent } from './status.js';

export interface FactoryContext {
  readonly threadId: string;
  readonly processEnv: NodeJS.ProcessEnv;
  readonly auth?: ConnectionAuth | undefined;
  readonly revisions?: RevisionVerdicts | undefined;
  /** Extensions declared to servers (MCP Apps), read per connection attempt. */
  readonly clientExtensions?:
    (() => Record<string, Record<string, unknown>> | undefined) | undefined;
  /** The session's local cwd (also the default of environments without their own). */
  readonly cwd: string | null;
  readonly environments: readonly SessionEnvironment[];
  readonly registrations: () => RegistrationSet;
  readonly elicitations: ElicitationRelay;
  readonly onStartupStatus: (event: StartupStatusEvent) => void;
  readonly onInventoryChanged: (scope: RegistrationScope) => void;
}

export function registrationFactory(
  ctx: FactoryContext,
): (source: RegistrationSource, registry: EnvironmentRegistry) => Registration {
  const cwdFor = (envId: string) =>
    envId === 'local'
      ? ctx.cwd
      : (ctx.environments.find((e) => e.environmentId === envId)?.cwd ?? ctx.cwd);
  return (source, registry) =>
    new Registration(
      source,
      {
        environments: registry,
        processEnv: ctx.processEnv,
        ...(ctx.auth ? { auth: ctx.auth } : {}),
        ...(ctx.revisions ? { revisions: ctx.revisions } : {}),
        ...(ctx.clientExtensions ? { clientExtensions: ctx.clientExtensions } : {}),
        cwdFor,
        isSelected: (envId) => ctx.environments.some((e) => e.environmentId === envId),
      },
      {
        onStartup: (reg, status) => {
          const registrations = ctx.registrations();
          registrations.watch.startupSettled(reg, registrations.registry);
          if (!registrations.isCurrent(reg) && reg.status.failureKind !== 'removed') return;
          registrations.invalidate();
          const { error, failureKind } = reg.status;
          ctx.onStartupStatus({
            threadId: ctx.threadId,
            scope: reg.scope,
            name: reg.scope.name,
            environmentId: reg.scope.environmentId,
            status,
            error,
            failureKind,
          });
        },
        onInventoryChanged: (reg) => {
          ctx.registrations().invalidate();
          ctx.onInventoryChanged(reg.scope);
        },
        onElicitation: (reg, request) => ctx.elicitations.relay(reg.scope, request),
      },
    );
}
