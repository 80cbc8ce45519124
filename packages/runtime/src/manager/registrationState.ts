/**
 * The state of one registration as one discriminated union: each state carries exactly its data
 * (a ready registration always has its live connection; a failed one always has its failure), so
 * nothing reads a connection that may not be there. `statusOf` derives the public vocabulary —
 * Codex's startup status and the runtime's connection status — from it. Pure logic.
 */

import type { ServerConnection } from '../connection/connection.js';
import type { ToolDefinition } from '../connection/mcpTypes.js';
import type { ConnectionStatus, FailureKind, StartupStatus } from './status.js';

/** Why a registration is not (or no longer) connected, for people and machines. */
export interface Failure {
  readonly message: string;
  readonly kind: FailureKind;
}

export type RegistrationState =
  /** Not started yet (or disabled: it never starts). */
  | { readonly kind: 'idle' }
  /** First start: launching and initializing `connection` (null until it exists). */
  | { readonly kind: 'starting'; readonly connection: ServerConnection | null }
  | { readonly kind: 'ready'; readonly connection: ServerConnection }
  /**
   * Lost after being ready (crash, lost HTTP session): waiting for or attempting a restart.
   * `tools` are the last ones the server listed: they stay in the inventory meanwhile, and a call
   * to one waits for the restart (router.ts).
   */
  | {
      readonly kind: 'reconnecting';
      readonly failure: Failure;
      readonly connection: ServerConnection | null;
      readonly tools: readonly ToolDefinition[];
    }
  /** Did not start, or restarts gave up; a reload retries it. */
  | { readonly kind: 'failed'; readonly failure: Failure }
  /** Stopped from outside (removed, cancelled, its environment was lost, session closed). */
  | {
      readonly kind: 'closed';
      readonly outcome: 'cancelled' | 'failed';
      readonly failure: Failure | null;
    };

export interface StatusFields {
  /** Null before the first start (and for disabled registrations). */
  readonly startupStatus: StartupStatus | null;
  readonly connectionStatus: ConnectionStatus;
  readonly error: string | null;
  readonly failureKind: FailureKind | null;
}

export function statusOf(state: RegistrationState, enabled: boolean): StatusFields {
  switch (state.kind) {
    case 'idle':
      return {
        startupStatus: null,
        connectionStatus: enabled ? 'notStarted' : 'disabled',
        error: null,
        failureKind: null,
      };
    case 'starting':
      return {
        startupStatus: 'starting',
        connectionStatus: 'starting',
        error: null,
        failureKind: null,
      };
    case 'ready':
      return {
        startupStatus: 'ready',
        connectionStatus: 'connected',
        error: null,
        failureKind: null,
      };
    case 'reconnecting':
      return {
        startupStatus: 'starting',
        connectionStatus: 'starting',
        error: state.failure.message,
        failureKind: state.failure.kind,
      };
    case 'failed':
      return {
        startupStatus: 'failed',
        connectionStatus:
          state.failure.kind === 'authentication' ? 'authenticationRequired' : 'failed',
        error: state.failure.message,
        failureKind: state.failure.kind,
      };
    case 'closed':
      return {
        startupStatus: state.outcome,
        connectionStatus: state.outcome,
        error: state.failure?.message ?? null,
        failureKind: state.failure?.kind ?? null,
      };
  }
}

/** The connection a state holds, live or being started (null when there is none). */
export function connectionOf(state: RegistrationState): ServerConnection | null {
  return state.kind === 'starting' || state.kind === 'ready' || state.kind === 'reconnecting'
    ? state.connection
    : null;
}
