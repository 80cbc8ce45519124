/**
 * How a session's parts are put together: its registrations (made by the registration factory,
 * kept in step with the config and the environments' own configs), the router over them, and
 * the calls made through the router — each told where its events go.
 */

import { appsExtensions } from '../apps/mcpApps.js';
import type { McprtConfig } from '../config/types.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import type { SessionSandbox } from '../sandbox/sessionSandbox.js';
import type { RegistrationScope } from '../scope.js';
import type { CallEmitter } from './callTracker.js';
import { SessionCalls } from './calls.js';
import type { ElicitationRelay } from './elicitations.js';
import { registrationFactory } from './registrationFactory.js';
import { RegistrationSet } from './registrationSet.js';
import { Router } from './router.js';
import type { SessionContext, SessionEnvironment, SessionOptions } from './sessionTypes.js';
import type { StartupStatusEvent } from './status.js';

/** Where the parts' events go (the session re-emits them). */
export interface SessionEventSinks {
  readonly startupStatus: (event: StartupStatusEvent) => void;
  readonly inventoryChanged: (scope: RegistrationScope) => void;
  readonly environmentRegistrations: (environmentId: string, error: string | null) => void;
  readonly toolCalls: CallEmitter;
}

export interface SessionPartsInput {
  readonly threadId: string;
  readonly config: McprtConfig;
  readonly registry: EnvironmentRegistry;
  readonly ctx: SessionContext;
  readonly options: SessionOptions;
  readonly environments: readonly SessionEnvironment[];
  readonly elicitations: ElicitationRelay;
  readonly sandbox: SessionSandbox;
  readonly closed: () => boolean;
  readonly events: SessionEventSinks;
}

export interface SessionParts {
  readonly registrations: RegistrationSet;
  readonly router: Router;
  readonly calls: SessionCalls;
}

export function assembleSession(input: SessionPartsInput): SessionParts {
  const { threadId, ctx, environments, events } = input;
  const environmentOrder = environments.map((e) => e.environmentId);
  const registrations: RegistrationSet = new RegistrationSet(input.config, input.registry, {
    selection: { environmentOrder, filter: input.options.filter },
    build: registrationFactory({
      threadId,
      processEnv: ctx.processEnv,
      auth: ctx.auth,
      revisions: ctx.revisions,
      clientExtensions: appsExtensions(input.options.mcpApps),
      cwd: input.options.cwd ?? null,
      environments,
      registrations: () => registrations,
      elicitations: input.elicitations,
      onStartupStatus: events.startupStatus,
      onInventoryChanged: events.inventoryChanged,
    }),
    onEnvironmentRead: events.environmentRegistrations,
  });
  const router = new Router({
    threadId,
    registrations,
    selected: () => environmentOrder,
    closed: input.closed,
  });
  const calls = new SessionCalls({
    threadId,
    router,
    registrations,
    sandbox: input.sandbox,
    history: ctx.history ?? null,
    events: events.toolCalls,
  });
  return { registrations, router, calls };
}
