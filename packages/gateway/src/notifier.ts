/**
 * Change notifications and log messages from the gateway to every client that can receive them:
 * long-lived server instances (a stdio connection of either era, a 2025 HTTP session) get
 * `notifications/*_list_changed` — which the SDK's stdio entry routes onto `subscriptions/listen`
 * streams for a 2026-07-28 connection — and `notifications/message`; a 2026-07-28 HTTP handler
 * publishes the change to its open listen streams. Bursts (ten servers becoming ready at once)
 * coalesce into one notification of each kind. Log messages about one registration reach only the
 * clients whose policy lets them list it; lines a request caused never come here (they go to
 * stderr: `Gateway.logLocal`).
 */

import type { RegistrationScope } from '@mcprt/runtime';
import type { Server, ServerNotifier } from '@modelcontextprotocol/server';

import type { LogLevel } from './status.js';

const COALESCE_MS = 50;

/** Which registrations a connected client may hear of (its policy's catalog). */
export interface LogAudience {
  /** May it hear of this registration, or (a bare environment id) of this environment? */
  hears(about: RegistrationScope | string): boolean;
}

const EVERYTHING: LogAudience = { hears: () => true };

export class ChangeNotifier {
  private readonly servers = new Map<Server, LogAudience>();
  private readonly publishers = new Set<ServerNotifier>();
  private timer: NodeJS.Timeout | null = null;

  /** A connected, initialized instance; returns the function that forgets it. */
  addServer(server: Server, audience: LogAudience = EVERYTHING): () => void {
    this.servers.set(server, audience);
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
      for (const server of this.servers.keys()) {
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

  /**
   * `notifications/message` to every connected instance (each applies its client's level); a
   * message about one registration only to the clients that may list it.
   */
  log(level: LogLevel, message: string, about?: RegistrationScope | string): void {
    for (const [server, audience] of this.servers) {
      if (about === undefined || audience.hears(about)) void logTo(server, level, message);
    }
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
