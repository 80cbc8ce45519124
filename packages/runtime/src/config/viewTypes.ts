/**
 * The validated shape of `[views.NAME]` and `[serve]` (docs/tool-shaping.md): named selections of
 * the runtime's tool inventory, how their tools are named, and when an agent gets tool search
 * instead of every definition. Parsing and validation live in `views.ts`; `views/` applies them.
 */

import type { ServeAuthConfig, ServePolicyConfig } from './serveTypes.js';
import { DEFAULT_SERVE_AUTH } from './serveTypes.js';
import type { ConfigLocation } from './types.js';

/** `tool_search`: `auto` searches once the view's definitions pass the threshold. */
export type ToolSearchMode = 'auto' | 'always' | 'off';

export const TOOL_SEARCH_MODES: readonly ToolSearchMode[] = ['auto', 'always', 'off'];

/**
 * `tool_prefix`: `always` names every tool `<environment>__<server>__<tool>` (thread-wide:
 * `<server>__<tool>`), each name a function of its own tool only, so adding an environment or a
 * server renames nothing; `conditional` gives the shortest unique name (`<tool>`, then
 * `<server>__<tool>`, then the `always` name).
 */
export type ToolPrefixMode = 'always' | 'conditional';

export const TOOL_PREFIX_MODES: readonly ToolPrefixMode[] = ['always', 'conditional'];

/** Default `include`: `*` for the environment, the server and the tool — every tool. */
export const DEFAULT_VIEW_INCLUDE: readonly string[] = ['*/*/*'];

/** Default `tool_search_threshold_tokens`. */
export const DEFAULT_TOOL_SEARCH_THRESHOLD_TOKENS = 10_000;

/** `[views.NAME.tools."<environment>/<server>/<tool>"]`: what the model sees of one tool. */
export interface ViewToolOverride {
  /** `name`: the model-visible name (`[A-Za-z0-9_-]{1,64}`). */
  readonly name: string | null;
  readonly title: string | null;
  readonly description: string | null;
  /** Merged over the server's own annotations. */
  readonly annotations: Readonly<Record<string, unknown>> | null;
  readonly location: ConfigLocation;
}

export interface ViewConfig {
  readonly name: string;
  /**
   * Patterns over `<environment>/<server>/<tool>` (`-` is the thread-wide scope; `*` and `?` are
   * wildcards; the tool part may itself hold `/`). Default: every tool
   * ({@link DEFAULT_VIEW_INCLUDE}).
   */
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly toolSearch: ToolSearchMode;
  readonly toolSearchThresholdTokens: number;
  /** Patterns (as `include`) of tools listed even when search is on. */
  readonly alwaysLoad: readonly string[];
  /** null: the gateway's `[serve] tool_prefix`, else the runtime's default names. */
  readonly toolPrefix: ToolPrefixMode | null;
  /** Keyed by the exact `<environment>/<server>/<tool>` path. */
  readonly tools: Readonly<Record<string, ViewToolOverride>>;
  readonly location: ConfigLocation;
}

/** A view table that failed validation: `--view NAME` is refused with this error. */
export interface InvalidViewConfig {
  readonly name: string;
  /** `file:line:column: keyPath: problem` of its first error. */
  readonly error: string;
  readonly location: ConfigLocation;
}

/** `[serve]`: defaults of `mcprt serve`. */
export interface ServeConfig {
  /** `view`: the view `mcprt serve` uses without `--view` (null: the whole inventory). */
  readonly view: string | null;
  /** `tool_prefix` for the whole inventory and for views that set none (null: default names). */
  readonly toolPrefix: ToolPrefixMode | null;
  /** `[serve.auth]`: how HTTP callers are identified (serveTypes.ts). */
  readonly auth: ServeAuthConfig;
  /** `[[serve.policies]]`, in file order (serveTypes.ts). */
  readonly policies: readonly ServePolicyConfig[];
  /**
   * `startup_wait_sec`: how long the gateway's first listing waits, at most, for registrations
   * still starting (each is waited for up to its own `startup_timeout_sec`), in seconds.
   */
  readonly startupWaitSec: number;
  /**
   * `metrics_public`: `/readyz` and `/metrics` answer without the MCP credential (false: they
   * need the same token as `/mcp`). `/healthz` is always public.
   */
  readonly metricsPublic: boolean;
  /**
   * `replicas`: the `http(s)://HOST:PORT` origin of every replica of this gateway, this one
   * included (docs/deploy.md). A replica finds itself by its own listening origin; an
   * input-required retry for an operation another replica holds is passed to that replica.
   * Empty: a single gateway.
   */
  readonly replicas: readonly string[];
}

/**
 * 45 s: above the default `startup_timeout_sec` (30 s), so by default every registration is
 * waited for until it is ready or has failed; below the 60 s an MCP client commonly allows a
 * request (the SDK's default), so a first `tools/list` answers before its client gives up.
 */
export const DEFAULT_SERVE_STARTUP_WAIT_SEC = 45;
/** The largest `startup_wait_sec` accepted. */
export const MAX_SERVE_STARTUP_WAIT_SEC = 600;

export const DEFAULT_SERVE_CONFIG: ServeConfig = {
  view: null,
  toolPrefix: null,
  auth: DEFAULT_SERVE_AUTH,
  policies: [],
  startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
  metricsPublic: false,
  replicas: [],
};
