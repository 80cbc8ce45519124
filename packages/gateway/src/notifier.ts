/**
 * Change notifications and log messages from the gateway to every client that can receive them:
 * long-lived server instances (a stdio connection of either era, a 2025 HTTP session) get
 * `notifications/*_list_changed` — which the SDK's stdio entry routes onto `subscriptions/listen`
 * streams for a 2026-07-28 connection — and `notifications/message`; a 2026-07-28 HTTP handler
 * publishes the change to its open listen streams. Bursts (ten servers becoming ready at once)
 * coalesce into one notification of each kind.
 */

import type { Server, ServerNotifier } from '@modelcontextprotocol/server';

import type { LogLevel } from './status.js';

const COALESCE_MS = 50;

export class ChangeNotifier {
  private readonly servers = new Set<Server>();
  private readonly publishers = new Set<ServerNotifier>();
  private timer: NodeJS.Timeout | null = null;

  /** A connected, initialized instance; returns the function that forgets it. */
  addServer(server: Server): () => void {
    this.servers.add(server);
    return () => this.servers.delete(server);
  }

  /** A 2026-07-28 HTTP handler's listen-stream publisher. */
  addPublisher(publisher: ServerNotifier): () => void {
    this.publishers.add(publisher);
    return () => this.publishers.delete(publisher);
  }

  get connectedServers(): number {
    return this.servers.size;
  }

  /** Tools, resources and prompts may have changed (coalesced). */
  changed(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const server of this.servers) {
        void server.sendToolListChanged().catch(() => undefined);
        void server.sendResourceListChanged().catch(() => undefined);
        void server.sendPromptListChanged().catch(() => undefined);
      }
      for (const publisher of this.publishers) {
        publisher.toolsChanged();
        publisher.resourcesChanged();
        publisher.promptsChanged();
      }
    }, COALESCE_MS);
    this.timer.unref();
  }

  /** `notifications/message` to every connected instance (each applies its client's level). */
  log(level: LogLevel, message: string): void {
    for (const server of this.servers) void logTo(server, level, message);
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.servers.clear();
    this.publishers.clear();
  }
}

export function logTo(server: Server, level: LogLevel, message: string): Promise<void> {
  return server
    .sendLoggingMessage({ level, logger: 'mcprt', data: message })
    .catch(() => undefined);
}
