/**
 * Tool-call lifecycle events a session emits (the app-server turns them into Codex's
 * `item/started`, `item/mcpToolCall/progress` and `item/completed`; history records them).
 * Every event carries the registration scope, so environment identity travels with the call,
 * the view the call was made through and the gateway caller who asked for it. A refused call
 * (history status `refused`, never sent) emits no event.
 */

import type { HistoryCaller, ToolCallStatus } from '../history/types.js';
import type { RegistrationScope } from '../scope.js';

export interface ToolCallStarted {
  readonly id: string;
  readonly threadId: string;
  readonly scope: RegistrationScope;
  readonly server: string;
  readonly environmentId: string | null;
  readonly tool: string;
  readonly arguments: Record<string, unknown> | null;
  readonly startedAt: number;
  /**
   * The view the call was made through (`ToolCallRequest.view`), null when none. A session's
   * events always carry it; optional for events made elsewhere.
   */
  readonly view?: string | null;
  /**
   * Who asked for the call through the gateway (`ToolCallRequest.caller`), null when none. A
   * session's events always carry it; optional for events made elsewhere.
   */
  readonly caller?: HistoryCaller | null;
}

export interface ToolCallProgress {
  readonly id: string;
  readonly threadId: string;
  readonly scope: RegistrationScope;
  readonly progress: number;
  readonly total: number | null;
  readonly message: string | null;
}

export interface ToolCallCompleted extends ToolCallStarted {
  readonly status: Exclude<ToolCallStatus, 'inProgress' | 'refused'>;
  /** The full MCP result (also for `isError: true`); null when the call threw. */
  readonly result: Record<string, unknown> | null;
  readonly error: string | null;
  readonly durationMs: number;
}
