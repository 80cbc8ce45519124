/**
 * Reading a tool call's sandbox authority from its request `_meta`: the state (current key
 * first, the deprecated key as fallback) and the launcher path when the host sent a usable one.
 * The state is kept as received — it is opaque to the server and only the launcher reads it.
 * Tool arguments are never consulted: arguments come from the model and are not authority.
 */

import { isAbsolute } from 'node:path';

import { SANDBOX_LAUNCHER_KEY, SANDBOX_STATE_KEY, SANDBOX_STATE_META_KEY } from './keys.js';

export interface SandboxAuthority {
  /** The host's sandbox state, as received. */
  readonly state: unknown;
  /** Absolute path of the launcher (`codexExecutable`), or null when none was sent. */
  readonly launcher: string | null;
  /**
   * Identity of this authority (state text and launcher). Two calls have the same authority
   * exactly when their ids are equal; any difference — key order included — counts as a change.
   */
  readonly id: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The authority of a call, or null when the host sent no sandbox state. */
export function readSandboxAuthority(meta: unknown): SandboxAuthority | null {
  if (!isObject(meta)) return null;
  const state = meta[SANDBOX_STATE_KEY] ?? meta[SANDBOX_STATE_META_KEY];
  if (state === undefined || state === null) return null;
  const launcher = launcherPath(meta[SANDBOX_LAUNCHER_KEY]);
  return { state, launcher, id: JSON.stringify([state, launcher]) };
}

function launcherPath(value: unknown): string | null {
  if (!isObject(value)) return null;
  const path = value['codexExecutable'];
  return typeof path === 'string' && path !== '' && isAbsolute(path) ? path : null;
}

export function sameAuthority(a: SandboxAuthority | null, b: SandboxAuthority | null): boolean {
  return a?.id === b?.id;
}
