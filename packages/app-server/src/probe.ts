/**
 * The thread-less view: `mcpServerStatus/list` and `mcpServer/resource/read` without a
 * `threadId`. Codex starts every configured server anew on each such call (~300 ms each); mcprt
 * keeps one shared probe session with every registration of every environment, started on first
 * use and reused while it is fresh (`ttlMs`, default 30 s, counted from when it was started).
 * A config reload or any config change seen by `thread/start` drops it; concurrent callers share
 * one start. Freshness: status seen here is at most `ttlMs` old plus startup time.
 */

import type { Runtime, Session } from '@mcprt/runtime';

export const DEFAULT_PROBE_TTL_MS = 30_000;

export class ProbeSession {
  private current: { session: Session; ready: Promise<unknown>; startedAt: number } | null = null;
  private closeTimer: NodeJS.Timeout | undefined;
  /** How many probe sessions were started (observable for tests and docs). */
  starts = 0;

  constructor(
    private readonly runtime: Runtime,
    private readonly ttlMs = DEFAULT_PROBE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A settled probe session (every registration ready, failed or cancelled). */
  async get(): Promise<Session> {
    if (this.current && this.now() - this.current.startedAt > this.ttlMs) await this.invalidate();
    if (!this.current) {
      const session = this.runtime.startSession({ cwd: process.cwd(), mcpApps: true });
      this.starts += 1;
      this.current = {
        session,
        ready: session.ready().catch(() => undefined),
        startedAt: this.now(),
      };
      clearTimeout(this.closeTimer);
      this.closeTimer = setTimeout(() => void this.invalidate(), this.ttlMs);
      this.closeTimer.unref();
    }
    const { session, ready } = this.current;
    await ready;
    return session;
  }

  async invalidate(): Promise<void> {
    const current = this.current;
    this.current = null;
    clearTimeout(this.closeTimer);
    await current?.session.close();
  }
}
