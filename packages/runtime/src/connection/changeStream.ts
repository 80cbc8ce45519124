/**
 * Change notifications on the 2026-07-28 revision: servers send `list_changed` only on a
 * `subscriptions/listen` stream, so a modern connection keeps one open for the lists the server
 * says change (its `listChanged` capabilities). The notifications reach the client's ordinary
 * notification handlers (connection.ts). The SDK never re-listens: a stream the server ended or
 * that dropped is reopened here with `@mcprt/base`'s backoff, and every reopening tells
 * `onReopened` (changes sent while it was down are lost, so the lists are taken again).
 */

import { backoffDelay } from '@mcprt/base';
import type { Client, McpSubscription } from '@modelcontextprotocol/client';

import type { ServerCapabilities } from './mcpTypes.js';

export const REOPEN_FIRST_MS = 250;
export const REOPEN_MAX_MS = 30_000;
/** A stream that stayed open this long starts a fresh backoff sequence when it drops. */
const STABLE_MS = 10_000;

type Filter = Parameters<Client['listen']>[0];

/** The `subscriptions/listen` filter for what the server says changes; null: nothing. */
export function changeFilter(capabilities: ServerCapabilities | undefined): Filter | null {
  const changes = (kind: string) =>
    (capabilities?.[kind] as { listChanged?: unknown } | undefined)?.listChanged === true;
  const filter: Filter = {
    ...(changes('tools') ? { toolsListChanged: true } : {}),
    ...(changes('resources') ? { resourcesListChanged: true } : {}),
    ...(changes('prompts') ? { promptsListChanged: true } : {}),
  };
  return Object.keys(filter).length > 0 ? filter : null;
}

export class ChangeStream {
  private subscription: McpSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  /** Streams opened so far (the first one included). */
  opened = 0;

  constructor(
    private readonly client: Client,
    private readonly filter: Filter,
    private readonly options: {
      /** Bound of each opening (until the server's acknowledgement). */
      readonly timeoutMs: number;
      /** A stream was reopened after a drop. */
      readonly onReopened: () => void;
    },
  ) {}

  /** Open the first stream; resolves once it is acknowledged or has failed (then retried). */
  start(): Promise<void> {
    return this.open();
  }

  /**
   * Stop reopening and close the stream, without waiting: closing sends `notifications/cancelled`,
   * which must not hold up closing the connection (over HTTP it may meet a 401 once the
   * credentials are gone, and wait for a login that never comes).
   */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    void this.subscription?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    let subscription: McpSubscription;
    try {
      subscription = await this.client.listen(this.filter, { timeout: this.options.timeoutMs });
    } catch {
      this.reopenLater();
      return;
    }
    if (this.stopped) {
      void subscription.close().catch(() => undefined);
      return;
    }
    this.subscription = subscription;
    const openedAt = Date.now();
    if (this.opened++ > 0) this.options.onReopened();
    void subscription.closed.then((cause) => {
      if (cause === 'local' || this.stopped) return;
      if (Date.now() - openedAt >= STABLE_MS) this.failures = 0;
      this.reopenLater();
    });
  }

  private reopenLater(): void {
    if (this.stopped) return;
    this.failures += 1;
    const delay = backoffDelay(this.failures, {
      firstMs: REOPEN_FIRST_MS,
      maxMs: REOPEN_MAX_MS,
      jitter: 0.2,
    });
    this.timer = setTimeout(() => void this.open(), delay);
    this.timer.unref();
  }
}
