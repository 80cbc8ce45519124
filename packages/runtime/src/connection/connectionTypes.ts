/**
 * What a connection's owner gives it: the listener for what the server starts (inventory changes,
 * elicitation, the end of the connection), and the options of one tool call.
 */

import type { ServerElicitation, ElicitationResponse } from '../elicitation/types.js';
import type { CallSignal } from './callCancel.js';
import type { ProgressUpdate } from './mcpTypes.js';
import type { TaskCallOptions } from './taskCalls.js';

export interface ConnectionListener {
  /** Tools, resources or templates changed after startup (server sent `list_changed`). */
  onInventoryChanged(): void;
  /** The server asks the user for input; resolve with the host's answer. */
  onElicitation(request: ServerElicitation): Promise<ElicitationResponse>;
  /** The transport closed unexpectedly after startup. */
  onClosed(reason: string): void;
  /** Extensions declared to the server (`capabilities.extensions`), read per attempt. */
  clientExtensions?(): Record<string, Record<string, unknown>> | undefined;
}

export interface CallOptions {
  readonly timeoutMs: number;
  /** What cancels the call: an `AbortSignal`, or the lighter `CallCancel` (ADR 0023). */
  readonly signal?: CallSignal;
  /** Request `_meta`, sent as given (an object, or any value a client forwarded untouched). */
  readonly meta?: unknown;
  readonly onProgress?: (progress: ProgressUpdate) => void;
  /** Tasks (taskCalls.ts): whether the caller asks for one, and what it is told of it. */
  readonly task?: TaskCallOptions;
}
