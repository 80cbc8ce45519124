/**
 * Threads of the app-server: each is one runtime `Session` (which holds the sandbox state) plus
 * what `thread/start` asked for (cwd, environments) and the client connection that owns it.
 * Notifications of a thread go to its owner; when the owner disconnects, its threads are closed.
 */

import type { Session } from '@mcprt/runtime';

import type { RpcPeer } from './rpcPeer.js';

export interface ThreadRecord {
  readonly id: string;
  readonly session: Session;
  readonly owner: RpcPeer;
  readonly cwd: string | null;
  readonly ephemeral: boolean;
  readonly createdAt: number;
  readonly environments: readonly { environmentId: string; cwd: string }[];
  /** In-flight tool calls by item id, for `mcpServer/tool/cancel`. */
  readonly inflight: Map<string, AbortController>;
}

export class ThreadTable {
  private readonly threads = new Map<string, ThreadRecord>();

  add(thread: ThreadRecord): void {
    this.threads.set(thread.id, thread);
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

export function wireThread(t: ThreadRecord) {
  return {
    id: t.id,
    environments: t.environments.map((e) => ({ environmentId: e.environmentId, cwd: e.cwd })),
    cwd: t.cwd,
    ephemeral: t.ephemeral,
    createdAt: t.createdAt,
  };
}
