/**
 * Reading a client request's `_meta` under the sandbox contract (docs/gateway.md, trust model).
 * The gateway's client is the host: the `codex/sandbox-state` it sends (current key first, the
 * deprecated `codex/sandbox-state-meta` as fallback) and its `codex/sandbox-launcher` are the
 * authority of that one call, handed to the runtime as the host's own authority — the state
 * value itself, never re-serialized, so its key order survives. Every other `codex/sandbox-*`
 * key, and the progress token (the runtime asks underlying servers with its own), is removed from
 * what is forwarded; the runtime then strips `codex/sandbox-*` keys from tool arguments too.
 */

import type { SandboxAuthority } from '@mcprt/runtime';
import { SANDBOX_LAUNCHER_KEY, SANDBOX_STATE_KEY, SANDBOX_STATE_META_KEY } from '@mcprt/runtime';

const SANDBOX_PREFIX = 'codex/sandbox-';

export interface SplitMeta {
  /** What is forwarded to the underlying server (undefined: no `_meta`). */
  readonly forward: Record<string, unknown> | undefined;
  /** The client's authority for this call, when it sent a state. */
  readonly authority: SandboxAuthority | undefined;
}

const NO_META: SplitMeta = { forward: undefined, authority: undefined };

export function splitCallMeta(meta: unknown): SplitMeta {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return NO_META;
  const record = meta as Record<string, unknown>;
  const state = present(record[SANDBOX_STATE_KEY]) ?? present(record[SANDBOX_STATE_META_KEY]);
  const launcher = launcherPath(record[SANDBOX_LAUNCHER_KEY]);
  // Object.fromEntries keeps a `__proto__` key as data (an assignment would set the prototype).
  const kept = Object.entries(record).filter(
    ([key]) => !key.startsWith(SANDBOX_PREFIX) && key !== 'progressToken',
  );
  return {
    forward: kept.length > 0 ? Object.fromEntries(kept) : undefined,
    authority:
      state === undefined ? undefined : { state, ...(launcher !== undefined ? { launcher } : {}) },
  };
}

function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** `{codexExecutable: "<path>"}` → the path (the runtime checks and probes it before use). */
function launcherPath(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const path = (value as Record<string, unknown>)['codexExecutable'];
  return typeof path === 'string' ? path : undefined;
}
