/**
 * The `_meta` keys and the `initialize` capability of the sandbox contract (brief §5), and how a
 * server opts in. Kept apart so every other module (and the app-server) names them one way.
 */

/** Current key: the thread's sandbox state, forwarded exactly. Also the current capability. */
export const SANDBOX_STATE_KEY = 'codex/sandbox-state';
/** Deprecated alias of {@link SANDBOX_STATE_KEY}: always sent alongside it, same value. */
export const SANDBOX_STATE_META_KEY = 'codex/sandbox-state-meta';
/** `{ codexExecutable }` of a verified launcher, for local stdio servers only. */
export const SANDBOX_LAUNCHER_KEY = 'codex/sandbox-launcher';
/** Every key under this prefix is authority: only the runtime may set it. */
export const SANDBOX_KEY_PREFIX = 'codex/sandbox-';

/**
 * True when the server's `initialize` result advertises `codex/sandbox-state` (or the deprecated
 * `codex/sandbox-state-meta`) under `capabilities.experimental`. Presence of the key is what
 * counts, as in Codex; its value is not interpreted.
 */
export function advertisesSandboxState(capabilities: unknown): boolean {
  if (!isObject(capabilities)) return false;
  const experimental = capabilities['experimental'];
  if (!isObject(experimental)) return false;
  return (
    Object.hasOwn(experimental, SANDBOX_STATE_KEY) ||
    Object.hasOwn(experimental, SANDBOX_STATE_META_KEY)
  );
}

export function isSandboxKey(key: string): boolean {
  return key.startsWith(SANDBOX_KEY_PREFIX);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
