/**
 * Process-level shutdown, so no server outlives `mcprt`: SIGTERM, SIGINT and SIGHUP close what
 * the running command registered (its runtime or app-server, which end every server process
 * group: SIGTERM, SIGKILL after the grace period) and only then exit. A second signal, or a hard
 * deadline well past the bounded shutdown, SIGKILLs every server group at once and exits. A stdio
 * app-server also stops when its parent dies (`watchParent`). Handlers are installed on the first
 * registration only, so commands that start nothing keep the default signal behaviour.
 */

import {
  KILL_GRACE_MS,
  KILL_SETTLE_MS,
  killAllProcessGroups,
  processGroupShutdowns,
} from '@mcprt/runtime';

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type Signal = keyof typeof SIGNALS;
/** Past the bounded shutdown (grace + settle), for remote groups and stuck closers. */
const HARD_DEADLINE_MS = KILL_GRACE_MS + KILL_SETTLE_MS + 3000;
const PARENT_POLL_MS = 500;

const closers = new Set<() => Promise<unknown>>();
let installed = false;
let stopping = false;
/** Exit status after a signal-initiated shutdown; null: 128 + the signal's number. */
let signalExitCode: number | null = null;

/**
 * Close `close` (with everything else registered, the last registered first) before the process
 * exits on a signal.
 * `exitCode` replaces the conventional 128 + signal number (a server stopping on request: 0).
 * Returns the unregistration.
 */
export function closeOnSignal(
  close: () => Promise<unknown>,
  options: { exitCode?: number } = {},
): () => void {
  install();
  closers.add(close);
  if (options.exitCode !== undefined) signalExitCode = options.exitCode;
  return () => closers.delete(close);
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(SIGNALS) as Signal[]) {
    process.on(signal, () => void stopProcess(signalExitCode ?? 128 + SIGNALS[signal]));
  }
}

/**
 * Close everything registered, wait until every server process group is gone, exit with `code`.
 * Called again while stopping (a second Ctrl+C), it kills every group at once and exits.
 */
export async function stopProcess(code: number): Promise<never> {
  if (stopping) {
    killAllProcessGroups();
    process.exit(code);
  }
  stopping = true;
  setTimeout(() => {
    killAllProcessGroups();
    process.exit(code);
  }, HARD_DEADLINE_MS);
  // Last registered first: a listener before the server behind it, the server before the runtime.
  for (const close of [...closers].reverse()) await close().catch(() => undefined);
  await processGroupShutdowns();
  process.exit(code);
}

/**
 * Call `onGone` once this process's parent has died (it is re-parented, so its parent pid
 * changes). For a stdio app-server, whose parent is its only client. Returns the stop function.
 */
export function watchParent(onGone: () => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
