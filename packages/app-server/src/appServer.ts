/**
 * The app-server: one runtime, its threads and the shared probe session, served to any number of
 * client connections (stdio or WebSocket). `attach()` wires a transport's connection to a
 * `RpcPeer`; closing a connection closes the threads it owns and cancels its pending OAuth
 * logins; `close()` shuts everything down.
 */

import type { Runtime } from '@mcprt/runtime';

import type { AppServerState } from './context.js';
import { dispatchRequest, wireError } from './dispatch.js';
import { OAuthLoginTable } from './handlers/oauthLogins.js';
import { ProbeSession } from './probe.js';
import type { PeerIo } from './rpcPeer.js';
import { RpcPeer } from './rpcPeer.js';
import { ThreadTable } from './threads.js';

export const APP_SERVER_VERSION = '0.1.0';
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface AppServerOptions {
  readonly runtime: Runtime;
  /** Reported as `codexHome` by `initialize`. */
  readonly home: string;
  readonly probeTtlMs?: number;
  readonly maxMessageBytes?: number;
  /** Where diagnostics go (never tokens). Default: stderr. */
  readonly log?: (line: string) => void;
}

export class AppServer {
  readonly state: AppServerState;
  readonly maxMessageBytes: number;
  private readonly peers = new Set<RpcPeer>();
  private readonly log: (line: string) => void;

  constructor(options: AppServerOptions) {
    this.state = {
      runtime: options.runtime,
      threads: new ThreadTable(),
      probe: new ProbeSession(options.runtime, options.probeTtlMs),
      oauthLogins: new OAuthLoginTable(),
      home: options.home,
      version: APP_SERVER_VERSION,
    };
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /**
   * Serve one client connection. `privileged`: the connection belongs to whoever owns this
   * app-server (its stdio, or an in-process client), so `history/list` may read the calls of
   * every thread; other connections only see their own threads' calls.
   */
  attach(io: PeerIo, options: { readonly privileged?: boolean } = {}): RpcPeer {
    const state = this.state;
    const peer = new RpcPeer(
      io,
      {
        handleRequest: (p, method, params, request) =>
          dispatchRequest(state, p, method, params, request),
        wireError,
        handleNotification: (_p, method) => {
          if (method !== 'initialized')
            this.log(`mcprt app-server: ignoring notification ${method}`);
        },
        onClose: (p) => {
          this.peers.delete(p);
          state.oauthLogins.cancelOwnedBy(p);
          for (const thread of state.threads.takeOwnedBy(p)) void thread.session.close();
        },
      },
      options.privileged === true,
    );
    this.peers.add(peer);
    return peer;
  }

  async close(): Promise<void> {
    for (const peer of [...this.peers]) peer.close();
    await Promise.all(this.state.threads.takeAll().map((t) => t.session.close()));
    await this.state.probe.invalidate();
    await this.state.runtime.close();
  }
}
