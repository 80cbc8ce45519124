/**
 * Ending a stdio server's process group for good. Every server leads its own process group
 * (environments spawn it detached), so shutdown signals the group: SIGTERM, then SIGKILL after the
 * grace period, and it is over only when no process of the group is left — not when the leader
 * exits, since a child that ignores SIGTERM outlives its leader. Waiting uses ref'd timers, so the
 * process cannot exit in the middle of it. Also the process-wide view: the groups not yet known to
 * be gone and the shutdowns in flight, so whoever exits the process (the CLI, the app-server) can
 * wait for all of them, or kill them all at a hard deadline.
 */

/** Time a group has between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** How long after SIGKILL a group may take to be gone (reaped) before shutdown gives up on it. */
export const KILL_SETTLE_MS = 1000;
const POLL_MS = 20;

/** Process groups started and not yet seen gone, by pgid. */
const live = new Set<number>();
/** Shutdowns in progress (each bounded by grace + settle). */
const inFlight = new Set<Promise<void>>();

/** Forget a group known to be gone (its leader exited and nothing else was left in it). */
export function forgetProcessGroup(pgid: number): void {
  live.delete(pgid);
}

/** Remember a group this process started (its leader's pid is the pgid). */
export function trackProcessGroup(pgid: number): void {
  live.add(pgid);
}

/** Whether any process of group `pgid` still exists (zombies included: not yet reaped). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal (cannot happen for our own children).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Send `signal` to the whole group; false when it has no process left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

async function gone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * SIGTERM the group, SIGKILL it when it is still there after `graceMs`, and resolve once it is
 * gone (at most `graceMs + KILL_SETTLE_MS`; false if it was not gone even then).
 */
export function terminateProcessGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<boolean> {
  return trackShutdown(
    (async () => {
      let ended = true;
      if (groupAlive(pgid)) {
        signalGroup(pgid, 'SIGTERM');
        if (!(await gone(pgid, graceMs))) {
          signalGroup(pgid, 'SIGKILL');
          ended = await gone(pgid, KILL_SETTLE_MS);
        }
      }
      if (ended) live.delete(pgid);
      return ended;
    })(),
  );
}

/** Count `shutdown` among the shutdowns in flight until it settles (it must be bounded). */
export function trackShutdown<T>(shutdown: Promise<T>): Promise<T> {
  const settled = shutdown.then(
    () => undefined,
    () => undefined,
  );
  inFlight.add(settled);
  void settled.then(() => inFlight.delete(settled));
  return shutdown;
}

/** Resolves once every shutdown in flight has finished (each is bounded). */
export async function processGroupShutdowns(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/**
 * SIGKILL every group this process started that may still have processes, at once (a hard
 * deadline or a second Ctrl+C); returns how many were signalled.
 */
export function killAllProcessGroups(): number {
  let n = 0;
  for (const pgid of live) {
    if (signalGroup(pgid, 'SIGKILL')) n += 1;
    else live.delete(pgid);
  }
  return n;
}
