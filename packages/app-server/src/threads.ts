/**
 * Threads of the app-server: each is one runtime `Session` (which holds the sandbox state) plus
 * what `thread/start` asked for (cwd, environments) and the client connection that owns it.
 * Notifications of a thread go to its owner; when the owner disconnects, its threads are closed.
 * Only the owner can use a thread (`requireThread` in context.ts).
 */

import type { CallCancel, Session } from '@mcprt/runtime';

import type { RpcPeer } from './rpcPeer.js';
import type { ToolCallEncoder } from './toolCallText.js';

export interface ThreadRecord {
  readonly id: string;
  readonly session: Session;
  readonly owner: RpcPeer;
  readonly cwd: string | null;
  readonly ephemeral: boolean;
  readonly createdAt: number;
  readonly environments: readonly { environmentId: string; cwd: string }[];
  /** In-flight tool calls by item id, for `mcpServer/tool/cancel`. */
  readonly inflight: Map<string, CallCancel>;
  /** Writes the thread's tool-call items and results (toolCallText.ts). */
  readonly encoder: ToolCallEncoder;
}

export class ThreadTable {
  private readonly threads = new Map<string, ThreadRecord>();
  /** Every thread id each connection started (kept after the thread closes, for history). */
  private readonly started = new WeakMap<RpcPeer, Set<string>>();

  add(thread: ThreadRecord): void {
    this.threads.set(thread.id, thread);
    let ids = this.started.get(thread.owner);
    if (!ids) {
      ids = new Set();
      this.started.set(thread.owner, ids);
    }
    ids.add(thread.id);
  }

  /** The ids of every thread `peer` has started on this connection (open or closed). */
  startedBy(peer: RpcPeer): ReadonlySet<string> {
    return this.started.get(peer) ?? new Set();
  }

  get(id: string): ThreadRecord | undefined {
    return this.threads.get(id);
  }

  all(): ThreadRecord[] {
    return [...this.threads.values()];
  }

  /** Remove and return every thread owned by this peer. */
  takeOwnedBy(peer: RpcPeer): ThreadRecord[] {
    const owned = this.all().filter((t) => t.owner === peer);
    for (const t of owned) this.threads.delete(t.id);
    return owned;
  }

  takeAll(): ThreadRecord[] {
    const all = this.all();
    this.threads.clear();
    return all;
  }
}

/** The wire `Thread`; `view` (an mcprt extension) only when the thread runs under one. */
export function wireThread(t: ThreadRecord) {
  const view = t.session.view;
  return {
    id: t.id,
    environments: t.environments.map((e) => ({ environmentId: e.environmentId, cwd: e.cwd })),
    cwd: t.cwd,
    ephemeral: t.ephemeral,
    createdAt: t.createdAt,
    ...(view !== null ? { view } : {}),
  };
}
