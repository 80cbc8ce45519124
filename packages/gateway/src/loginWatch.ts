/**
 * Picking up a login done elsewhere. `mcprt mcp login` in a terminal writes the credentials store
 * (keychain or file); this process is not told. While a registration waits for a login (its
 * connection status is `authenticationRequired`), its stored credentials are looked at every
 * couple of seconds; once there, the registration reconnects — with a growing delay if it still
 * fails, so bad credentials do not make it reconnect in a loop.
 */

import { scopeKey } from '@mcprt/runtime';
import type { RegistrationScope, Session } from '@mcprt/runtime';

const CHECK_EVERY_MS = 2_000;
const MAX_RETRY_DELAY_MS = 300_000;

export class LoginWatch {
  private timer: NodeJS.Timeout | null = null;
  private readonly retries = new Map<string, { at: number; delay: number }>();

  constructor(
    private readonly session: Session,
    private readonly onReconnect: (scope: RegistrationScope) => void,
    private readonly everyMs = CHECK_EVERY_MS,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.check(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reconnect every registration that waits for a login whose credentials are now stored. */
  check(now = Date.now()): void {
    for (const status of this.session.listStatus()) {
      const key = scopeKey(status.scope);
      if (status.connectionStatus !== 'authenticationRequired') {
        if (status.connectionStatus === 'connected') this.retries.delete(key);
        continue;
      }
      if (status.authStatus !== 'oAuth') continue; // still nothing stored
      const retry = this.retries.get(key);
      if (retry !== undefined && now < retry.at) continue;
      const delay = Math.min((retry?.delay ?? this.everyMs / 2) * 2, MAX_RETRY_DELAY_MS);
      this.retries.set(key, { at: now + delay, delay });
      this.onReconnect(status.scope);
      void this.session.restartRegistration(status.scope).catch(() => undefined);
    }
  }
}
