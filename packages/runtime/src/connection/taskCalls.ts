/**
 * Tool calls that run as MCP tasks (taskWire.ts), for one connection: the `tools/call` is sent on
 * the raw channel (rawRequests.ts) — in 2025 with `params.task`, in 2026 with the extension
 * declared (the client's capabilities, mcpClient.ts) — and an answer holding a task is followed to
 * its end (taskFollow.ts); an answer without one is the call's result as for any call (a 2026
 * `input_required` answer runs the SDK's rounds, sdkInternals.ts). The host is told the task's
 * reference as soon as the server made it (the history keeps it so a restarted host can resume
 * it, `resume`). The whole task is bounded by `task_timeout_sec`, else the call's timeout; its
 * final result is checked against the tool's `outputSchema` as on the other paths.
 */

import type { Client, Transport } from '@modelcontextprotocol/client';

import type { ServerConfig } from '../config/types.js';
import type { ElicitationResponse, ServerElicitation } from '../elicitation/types.js';
import type { CallSignal } from './callCancel.js';
import { abortSignalOf } from './callCancel.js';
import { noteTaskOrigin } from './callOrigin.js';
import type { CallToolResult, ProgressUpdate, ToolDefinition } from './mcpTypes.js';
import { checkStructuredContent, OutputValidators } from './outputValidators.js';
import { RawRequests } from './rawRequests.js';
import { resolveModernResult } from './sdkInternals.js';
import { sdkCallOptions } from './sdkToolCall.js';
import type { ToolCallParams } from './sdkToolCall.js';
import { followTask } from './taskFollow.js';
import type { TaskRef, TaskState, TaskWire } from './taskWire.js';
import { createdTask } from './taskWire.js';

/** What a caller may say about tasks for one call. */
export interface TaskCallOptions {
  /** 2025: ask for a task where the tool allows one (`taskSupport: optional`). */
  readonly wanted?: boolean;
  /** The server made a task for the call (its reference, to keep). */
  readonly onCreated?: (ref: TaskRef) => void;
  /** Each state the server reported while the task ran. */
  readonly onState?: (state: TaskState) => void;
}

export interface TaskCallLimits {
  readonly timeoutMs: number;
  readonly signal?: CallSignal | undefined;
  readonly onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  readonly task?: TaskCallOptions | undefined;
}

/** What the calls need of their connection. */
export interface TaskConnection {
  readonly config: ServerConfig;
  /** The listed tools (their `outputSchema` checks a final result). */
  tools(): readonly ToolDefinition[];
  currentClient(): Client;
  currentTransport(): Transport | undefined;
  elicit(request: ServerElicitation): Promise<ElicitationResponse>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class TaskCalls {
  private raw: RawRequests | undefined;
  private rawTransport: Transport | undefined;
  private readonly outputs = new OutputValidators();

  constructor(private readonly connection: TaskConnection) {}

  /** `tools/call` that may become a task; resolves with the final result. */
  async call(
    params: ToolCallParams,
    wire: TaskWire,
    limits: TaskCallLimits,
  ): Promise<CallToolResult> {
    // The final result is checked against the tool's outputSchema, as on the other paths.
    const validate = this.outputs.prepare(this.connection.tools(), params.name);
    const result = await this.run(params, wire, limits);
    if (validate !== null) checkStructuredContent(validate, params.name, result);
    return result;
  }

  private async run(
    params: ToolCallParams,
    wire: TaskWire,
    limits: TaskCallLimits,
  ): Promise<CallToolResult> {
    const startedAt = Date.now();
    const client = this.connection.currentClient();
    const signal = abortSignalOf(limits.signal);
    const sent: Record<string, unknown> = { ...params };
    if (wire === 'core') sent['task'] = {};
    const raw = await this.channel().request('tools/call', sent, {
      timeoutMs: limits.timeoutMs,
      signal,
    });
    const task = createdTask(wire, raw);
    if (task === null) return this.plainResult(client, params, raw, limits, startedAt);
    const ref: TaskRef = { taskId: task.taskId, wire };
    limits.task?.onCreated?.(ref);
    return this.follow(ref, task, limits, startedAt);
  }

  /** Follow a task a previous process started (the history's reference) to its end. */
  resume(ref: TaskRef, limits: TaskCallLimits): Promise<CallToolResult> {
    return this.follow(ref, null, limits, Date.now());
  }

  /** Fail whatever waits on the raw channel (the connection is closing). */
  close(): void {
    this.raw?.failAll(new Error('Connection closed'));
  }

  private follow(
    ref: TaskRef,
    first: TaskState | null,
    limits: TaskCallLimits,
    startedAt: number,
  ): Promise<CallToolResult> {
    const { config } = this.connection;
    const budget = config.taskTimeoutMs ?? limits.timeoutMs;
    const setting = config.taskTimeoutMs !== undefined ? 'task_timeout_sec' : 'tool_timeout_sec';
    // A 2025 task's questions name it: they belong to this call's origin (callOrigin.ts).
    const unnote = noteTaskOrigin(this.connection.currentClient(), ref.taskId);
    return followTask(
      {
        request: (method, p, options) => this.channel().request(method, p, options),
        elicit: (request) => this.connection.elicit(request),
      },
      ref,
      first,
      {
        deadline: startedAt + budget,
        deadlineLabel: `${setting} (${Math.round(budget / 1000)} s)`,
        signal: abortSignalOf(limits.signal),
        onProgress: limits.onProgress,
        onState: limits.task?.onState,
      },
    ).finally(unnote);
  }

  /** An answer without a task: 2025's as is; 2026's resolved as the SDK resolves a call. */
  private async plainResult(
    client: Client,
    params: ToolCallParams,
    raw: Record<string, unknown>,
    limits: TaskCallLimits,
    startedAt: number,
  ): Promise<CallToolResult> {
    if (client.getProtocolEra() !== 'modern') return raw as CallToolResult;
    const request = { method: 'tools/call', params } as const;
    const result = await resolveModernResult(
      client,
      raw,
      request,
      sdkCallOptions(limits),
      startedAt,
    );
    return (isObject(result) ? result : { content: [] }) as CallToolResult;
  }

  /** The raw channel of the current transport (a new one after a reconnect). */
  private channel(): RawRequests {
    const transport = this.connection.currentTransport();
    if (transport === undefined) throw new Error('Not connected');
    if (this.raw === undefined || this.rawTransport !== transport) {
      this.raw = new RawRequests(transport, this.connection.currentClient());
      this.rawTransport = transport;
    }
    return this.raw;
  }
}
