/**
 * The tasks `mcprt serve` holds for its clients: a tool call the server behind the tool made a
 * task of (runtime connection/taskCalls.ts follows it to its end) is answered to a client that
 * declared tasks with a task of the gateway's own, whose id names the registration scope and the
 * server's task (`<server@env>/<task id>`) and which belongs to the caller that started it: any
 * other caller asking for it is told the task is unknown, exactly as for an id never issued. A
 * finished task is kept for an hour after its end (its `ttlMs`), then forgotten.
 */

import type { CallCancel, RegistrationScope, TaskRef, TaskState, TaskStatus } from '@mcprt/runtime';
import { scopeLabel } from '@mcprt/runtime';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';

import type { TaskInputs } from './taskInputs.js';

/** How long a finished task stays readable. */
export const TASK_TTL_MS = 3_600_000;
/** The poll interval the gateway suggests (its own state is in memory: cheap to read). */
export const TASK_POLL_MS = 500;

export interface GatewayTask {
  readonly id: string;
  /** The caller key (client.ts) of the client that started it. */
  readonly owner: string;
  readonly scope: RegistrationScope;
  readonly createdAt: string;
  lastUpdatedAt: string;
  status: TaskStatus;
  statusMessage: string | undefined;
  /** The call's result once it ended (a failure: the tool error the model sees). */
  result: CallToolResult | undefined;
  /** When it ended (epoch ms), for the TTL. */
  endedAt: number | undefined;
  readonly cancel: CallCancel;
  readonly done: Promise<CallToolResult>;
  /** The server's questions waiting for this task's owner (taskInputs.ts). */
  readonly inputs: TaskInputs;
}

export class GatewayTaskTable {
  private readonly tasks = new Map<string, GatewayTask>();

  /** Record the task the server made of a call; `done` settles with the call's result. */
  add(
    owner: string,
    scope: RegistrationScope,
    ref: TaskRef,
    cancel: CallCancel,
    done: Promise<CallToolResult>,
    inputs: TaskInputs,
  ): GatewayTask {
    this.prune();
    const now = new Date().toISOString();
    const task: GatewayTask = {
      id: `${scopeLabel(scope)}/${ref.taskId}`,
      owner,
      scope,
      createdAt: now,
      lastUpdatedAt: now,
      status: 'working',
      statusMessage: undefined,
      result: undefined,
      endedAt: undefined,
      cancel,
      inputs,
      done: done.then((result) => {
        const failed = cancel.aborted;
        this.end(task, failed ? 'cancelled' : 'completed', result);
        return result;
      }),
    };
    this.tasks.set(task.id, task);
    return task;
  }

  /** A state the server reported (status and message), unless the task has ended here. */
  update(task: GatewayTask, state: TaskState): void {
    if (task.endedAt !== undefined) return;
    // A finished server task is finished here once its result is in (`done`).
    if (state.status === 'working' || state.status === 'input_required') task.status = state.status;
    task.statusMessage = state.statusMessage;
    task.lastUpdatedAt = new Date().toISOString();
  }

  /** The caller's task `id`; anything else is `Unknown task` (InvalidParams). */
  get(id: unknown, owner: string): GatewayTask {
    this.prune();
    const task = typeof id === 'string' ? this.tasks.get(id) : undefined;
    if (task === undefined || task.owner !== owner) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${String(id)}`);
    }
    return task;
  }

  /** The caller's tasks, oldest first. */
  list(owner: string): GatewayTask[] {
    this.prune();
    return [...this.tasks.values()].filter((task) => task.owner === owner);
  }

  /** Cancel the caller's task: the server is told (`tasks/cancel`) by the runtime. */
  cancel(task: GatewayTask): void {
    if (task.endedAt !== undefined) return;
    task.cancel.abort(new Error('task cancelled by the client'));
    this.end(task, 'cancelled', undefined);
  }

  private end(task: GatewayTask, status: TaskStatus, result: CallToolResult | undefined): void {
    if (task.endedAt !== undefined) return;
    task.inputs.close();
    task.status = status;
    task.result = result;
    task.endedAt = Date.now();
    task.lastUpdatedAt = new Date(task.endedAt).toISOString();
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, task] of this.tasks) {
      if (task.endedAt !== undefined && now - task.endedAt > TASK_TTL_MS) this.tasks.delete(id);
    }
  }
}
