/**
 * The shapes a session is opened with and the events it emits: its environments and options
 * (what a host chooses), its context (what the runtime supplies), and the typed event map.
 */

import type { RuntimeAuth } from '../auth/runtimeAuth.js';
import type { RevisionVerdicts } from '../connection/revisionVerdicts.js';
import type { ElicitationHandler } from '../elicitation/types.js';
import type { HistorySink } from '../history/types.js';
import type { RegistrationScope } from '../scope.js';
import type { ToolCallCompleted, ToolCallProgress, ToolCallStarted } from './toolCallEvents.js';
import type { Session } from './session.js';
import type { StartupStatusEvent } from './status.js';

export interface SessionEnvironment {
  readonly environmentId: string;
  readonly cwd: string | null;
}

export interface SessionOptions {
  readonly threadId?: string;
  /** The session's local cwd (relative local `cwd`s resolve against it). */
  readonly cwd?: string | null;
  /**
   * Selected environments in order (the legacy routing order). Default: every configured
   * environment in config order, each with its configured cwd, else the session cwd.
   */
  readonly environments?: readonly SessionEnvironment[];
  /** Include only the registrations this returns true for. */
  readonly filter?: (scope: RegistrationScope) => boolean;
  /** Answers servers' elicitation requests; without one, every request is declined at once. */
  readonly onElicitation?: ElicitationHandler;
  /**
   * Start nothing up front: each registration starts on first use (a tool call, a resource
   * read, `start()` or `ready()`). The CLI's `call` uses this to start only its target.
   */
  readonly lazy?: boolean;
  /**
   * The thread's sandbox state: an opaque JSON value sent to servers that advertise
   * `codex/sandbox-state` exactly as given (see docs/sandbox.md). Change it with
   * `setSandboxState`.
   */
  readonly sandboxState?: unknown;
  /**
   * A `[views.NAME]` of config.toml: tool calls outside it are refused (and recorded as refused),
   * calls are recorded with its name, and `toolView()` defaults to it (docs/tool-shaping.md).
   * An unknown or invalid view throws `UnknownViewError`.
   */
  readonly view?: string | null;
  /**
   * The host renders MCP Apps: servers are told so (`io.modelcontextprotocol/ui` in
   * `capabilities.extensions`). A function is asked at each connection attempt.
   */
  readonly mcpApps?: boolean | (() => boolean);
}

export interface SessionEvents {
  startupStatus: [StartupStatusEvent];
  inventoryChanged: [{ scope: RegistrationScope }];
  toolCallStarted: [ToolCallStarted];
  toolCallProgress: [ToolCallProgress];
  toolCallCompleted: [ToolCallCompleted];
  /** An environment's own config was read (error: why it could not be, naming it). */
  environmentRegistrations: [{ environmentId: string; error: string | null }];
}

/** What the runtime gives every session it opens. */
export interface SessionContext {
  readonly processEnv: NodeJS.ProcessEnv;
  /** Where tool calls are recorded (none: not recorded). */
  readonly history?: HistorySink | null;
  /** Called once when the session closes (the runtime forgets it). */
  readonly onClose?: (session: Session) => void;
  /** OAuth credentials (HTTP transports authenticate with them; status shows `authStatus`). */
  readonly auth?: RuntimeAuth;
  /** The protocol revision each scope negotiated, shared by the runtime's sessions. */
  readonly revisions?: RevisionVerdicts;
}
