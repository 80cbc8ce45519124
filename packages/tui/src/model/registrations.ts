/**
 * The TUI's picture of the registrations of its thread: the last `mcpServerStatus/list` item of
 * each registration scope `(environmentId, name)`, overlaid with the latest
 * `mcpServer/startupStatus/updated` for it. Whichever arrived later decides the status label, so
 * the view moves live from `starting` to `connected`/`failed` before the next list arrives.
 * Pure functions over immutable arrays.
 */

import type {
  McpServerStartupFailureReason,
  McpServerStartupState,
  McpServerStatus,
  McpServerStatusUpdatedNotification,
} from '@mcprt/protocol';

import type { StatusLabel } from './mcpStatus.js';
import { connectionLabel } from './mcpStatus.js';

export interface StartupOverlay {
  readonly state: McpServerStartupState;
  readonly error: string | null;
  readonly failureReason: McpServerStartupFailureReason | null;
  readonly seq: number;
}

export interface Registration {
  readonly name: string;
  /** Registration scope: null for a thread-wide registration. */
  readonly environmentId: string | null;
  readonly status: McpServerStatus | null;
  readonly statusSeq: number;
  readonly startup: StartupOverlay | null;
}

const sameScope = (r: Registration, name: string, environmentId: string | null): boolean =>
  r.name === name && r.environmentId === environmentId;

/** Replace the table with a complete status list, keeping startup overlays of known scopes. */
export function applyStatusList(
  previous: readonly Registration[],
  items: readonly McpServerStatus[],
  seq: number,
): Registration[] {
  return items.map((status) => {
    const before = previous.find((r) => sameScope(r, status.name, status.environmentId));
    return {
      name: status.name,
      environmentId: status.environmentId,
      status,
      statusSeq: seq,
      startup: before?.startup ?? null,
    };
  });
}

/** Record one startup notification (adding the scope when the list has not shown it yet). */
export function applyStartupUpdate(
  previous: readonly Registration[],
  update: Pick<
    McpServerStatusUpdatedNotification,
    'name' | 'environmentId' | 'status' | 'error' | 'failureReason'
  >,
  seq: number,
): Registration[] {
  const startup: StartupOverlay = {
    state: update.status,
    error: update.error,
    failureReason: update.failureReason,
    seq,
  };
  const index = previous.findIndex((r) => sameScope(r, update.name, update.environmentId));
  if (index < 0) {
    return [
      ...previous,
      {
        name: update.name,
        environmentId: update.environmentId,
        status: null,
        statusSeq: -1,
        startup,
      },
    ];
  }
  return previous.map((r, i) => (i === index ? { ...r, startup } : r));
}

/** Codex's labels; the newer of status item and startup notification decides. */
export function statusLabel(r: Registration): StatusLabel {
  if (r.startup !== null && r.startup.seq > r.statusSeq) {
    switch (r.startup.state) {
      case 'starting':
        return 'starting';
      case 'ready':
        return 'connected';
      case 'cancelled':
        return 'cancelled';
      case 'failed':
        return r.startup.failureReason === 'reauthenticationRequired'
          ? 'authentication required'
          : 'failed';
    }
  }
  const runtime = r.status?.runtimeStatus ?? null;
  if (runtime !== null) return connectionLabel(runtime);
  if (r.status?.authStatus === 'notLoggedIn') return 'authentication required';
  return 'unknown';
}

/** Why a registration is not connected: the startup error, else the status item's. */
export function failureCause(r: Registration): string | null {
  const label = statusLabel(r);
  if (label === 'connected' || label === 'starting' || label === 'disabled') return null;
  return r.startup?.error ?? r.status?.toolsError ?? null;
}

/** Tool count of a connected registration (null when it is not connected). */
export function toolCount(r: Registration): number | null {
  if (statusLabel(r) !== 'connected' || r.status === null) return null;
  return Object.keys(r.status.tools).length;
}

/**
 * True when nothing will change without a new event: no registration is starting, and every one
 * has a status item fetched after its last startup notification (so tool counts are current).
 */
export function allSettled(regs: readonly Registration[]): boolean {
  return regs.every(
    (r) =>
      r.status !== null &&
      (r.startup === null || r.statusSeq > r.startup.seq) &&
      statusLabel(r) !== 'starting',
  );
}

/**
 * The registration a call without `--environment` reaches: the runtime's legacy name-only rule
 * (thread-wide first, else the first environment in the thread's order that has the name).
 */
export function legacyScope(
  regs: readonly Registration[],
  name: string,
  environmentOrder: readonly string[],
): string | null | undefined {
  if (regs.some((r) => sameScope(r, name, null))) return null;
  return environmentOrder.find((env) => regs.some((r) => sameScope(r, name, env)));
}
