/**
 * The names of the sandbox contract as a server sees them: the experimental capability a server
 * advertises in `initialize` to opt in, and the `_meta` keys its tool calls then carry.
 */

/** Current key and capability: the host's sandbox state, exactly as the host gave it. */
export const SANDBOX_STATE_KEY = 'codex/sandbox-state';
/** Deprecated alias: older hosts send only this one; mcprt sends both. */
export const SANDBOX_STATE_META_KEY = 'codex/sandbox-state-meta';
/** `{ codexExecutable }`: a verified launcher (local stdio servers only). */
export const SANDBOX_LAUNCHER_KEY = 'codex/sandbox-launcher';

/**
 * What to put under `capabilities.experimental` to opt in, e.g.
 * `new McpServer(info, { capabilities: { experimental: { ...SANDBOX_CAPABILITIES } } })`.
 */
export const SANDBOX_CAPABILITIES: Readonly<Record<string, object>> = Object.freeze({
  [SANDBOX_STATE_KEY]: {},
});
