/**
 * Building a tool call's `_meta` under the sandbox contract: `codex/sandbox-*` keys supplied by a
 * client or the model (in `_meta` or in the arguments' own `_meta`) are removed — authority comes
 * only from the thread — as are `__proto__`, `constructor` and `prototype`, and, for opted-in servers, the thread's state is added under both keys
 * (the very value the host gave, never copied or rebuilt) plus the launcher when there is one.
 * Inputs are never mutated: a changed object is a shallow copy.
 */

import {
  isObject,
  isSandboxKey,
  SANDBOX_LAUNCHER_KEY,
  SANDBOX_STATE_KEY,
  SANDBOX_STATE_META_KEY,
} from './keys.js';

export interface LauncherMeta {
  readonly codexExecutable: string;
}

/**
 * Keys that mean a prototype to JavaScript: a server that copies `_meta` with `Object.assign` or
 * `obj[key] = …` would give its copy an attacker's prototype (inherited fake `codex/sandbox-*`
 * keys). Never forwarded.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const dropped = (key: string) => isSandboxKey(key) || PROTOTYPE_KEYS.has(key);

/**
 * `meta` without any `codex/sandbox-*` key and without `__proto__`, `constructor` and
 * `prototype` (the same object when there is none).
 */
export function withoutSandboxKeys(meta: Record<string, unknown>): Record<string, unknown> {
  if (!Object.keys(meta).some(dropped)) return meta;
  return Object.fromEntries(Object.entries(meta).filter(([key]) => !dropped(key)));
}

/**
 * Tool arguments with `codex/sandbox-*` keys removed from their `_meta` object, if they have one
 * (the same object when nothing had to go). Nothing else in the arguments is touched.
 */
export function sanitizeArguments(
  args: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (args === undefined || !isObject(args['_meta'])) return args;
  const inner = args['_meta'];
  const cleaned = withoutSandboxKeys(inner);
  return cleaned === inner ? args : { ...args, _meta: cleaned };
}

/**
 * The `_meta` to send: the client's (sandbox keys removed), then, when `state` is given, the
 * state under both keys and the launcher if any. Undefined when there is nothing to send.
 */
export function buildCallMeta(
  clientMeta: Record<string, unknown> | undefined,
  injected: { readonly state: unknown; readonly launcher: LauncherMeta | null } | null,
): Record<string, unknown> | undefined {
  const base = clientMeta === undefined ? undefined : withoutSandboxKeys(clientMeta);
  if (injected === null) return base;
  const meta: Record<string, unknown> = { ...base };
  meta[SANDBOX_STATE_KEY] = injected.state;
  meta[SANDBOX_STATE_META_KEY] = injected.state;
  if (injected.launcher !== null) {
    meta[SANDBOX_LAUNCHER_KEY] = { codexExecutable: injected.launcher.codexExecutable };
  }
  return meta;
}
