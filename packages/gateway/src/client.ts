/**
 * One client of the gateway as its handlers see it (serverFactory.ts, fastPath.ts, toolCall.ts):
 * the gateway's shared state — the session, the operations, the stdio handovers — with this
 * client's own caller and access: the catalog of the view and environments its policy grants
 * (`[[serve.policies]]`, policy.ts). A client's operations carry it, so an elicitation only ever
 * reaches the client whose call caused it and only the same caller can resume an operation;
 * its calls are recorded with its identity and view. One object per connection (stdio, a 2025
 * HTTP session) or per 2026-07-28 HTTP request.
 */

import type { CallerIdentity, RegistrationScope, Session } from '@mcprt/runtime';

import type { Caller } from './caller.js';
import type { Catalog } from './catalog.js';
import type { HandoverTable } from './handover.js';
import type { CallMetrics } from './observability/metrics.js';
import type { Observability } from './observability/observability.js';
import type { OperationTable } from './operationTable.js';
import type { OperationClient } from './operations.js';
import type { GatewayCore } from './serverFactory.js';
import type { GatewayTaskTable } from './taskTable.js';

/** What every client shares: the gateway. */
export interface SharedCore {
  readonly session: Session;
  readonly operations: OperationTable;
  readonly handovers: HandoverTable;
  readonly tasks: GatewayTaskTable;
  readonly instructions: string;
  readonly inputTimeoutMs: number;
  readonly observability: Observability;
  /** The status document of the registrations `shown` keeps. */
  statusText(shown?: (scope: RegistrationScope) => boolean): string;
  start(): void;
}

/** What a caller may list and call (its policy's grant, resolved). */
export interface ClientAccess {
  readonly catalog: Catalog;
  /** The view calls are made through and recorded under (null: the whole inventory). */
  readonly view: string | null;
  /** The `[[serve.policies]]` entry that granted it (null: no policies configured, or local). */
  readonly policy: string | null;
  /** Why the caller may do nothing at all (no policy matched), else null. */
  readonly refused: string | null;
  /** The catalog's environments are narrowed: a tool elsewhere is refused, not unknown. */
  readonly narrowed: boolean;
}

export class ClientCore implements GatewayCore, OperationClient {
  readonly callerKey: string;
  /** What history records of this client's calls carry (undefined: an anonymous caller). */
  readonly identity: CallerIdentity | undefined;

  constructor(
    private readonly shared: SharedCore,
    readonly caller: Caller,
    readonly access: ClientAccess,
  ) {
    this.callerKey = callerKeyOf(caller);
    this.identity =
      caller.subject === null && caller.clientId === null
        ? undefined
        : { subject: caller.subject, clientId: caller.clientId };
  }

  get session(): Session {
    return this.shared.session;
  }
  get operations(): OperationTable {
    return this.shared.operations;
  }
  get handovers(): HandoverTable {
    return this.shared.handovers;
  }
  get tasks(): GatewayTaskTable {
    return this.shared.tasks;
  }
  get instructions(): string {
    return this.shared.instructions;
  }
  get inputTimeoutMs(): number {
    return this.shared.inputTimeoutMs;
  }
  get catalog(): Catalog {
    return this.access.catalog;
  }
  get metrics(): CallMetrics {
    return this.shared.observability.metrics;
  }
  get client(): ClientCore {
    return this;
  }
  /** The status of what this client may list only. */
  statusText(): string {
    return this.shared.statusText((scope) => this.access.catalog.includesServer(scope));
  }
  start(): void {
    this.shared.start();
  }
}

/** Callers with equal keys are the same caller (kind, subject, client). */
export function callerKeyOf(caller: Caller): string {
  return JSON.stringify([caller.kind, caller.subject, caller.clientId]);
}
