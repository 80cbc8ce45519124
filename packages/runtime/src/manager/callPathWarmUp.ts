/**
 * Priming of the tool-call path (ADR 0027). V8 compiles a function on its first run and its
 * property accesses start uninitialised, and Node loads `perf_hooks` on the first use of
 * `performance`: a session's first tool call paid all of that for every step of the path (a few
 * milliseconds; its later calls take a fraction of one). Once per process, in the event-loop
 * turn after a session starts its servers — while they start and the process would be idle —
 * the steps of a call run once on synthetic data, each in the module that owns it: a call on a
 * throw-away fast path whose request line is dropped and which is handed a synthetic answer, the
 * call's sandbox `_meta`, and its bookkeeping on a tracker without history. Nothing is sent to any server, no history record is
 * written, no session emits an event; a failure here changes nothing (the first call compiles
 * what is left, as before).
 */

import { ProcessWarmUp } from '@mcprt/base';

import { warmUpFastPath } from '../connection/fastToolCalls.js';
import { warmUpCallAuthority } from '../sandbox/sessionSandbox.js';
import { warmUpCallTracker } from './callTracker.js';

/** The warm-ups, each in the module it primes. */
const warmUp = new ProcessWarmUp(() => {
  warmUpFastPath();
  warmUpCallAuthority();
  warmUpCallTracker();
});

/** Whether this process's call path has been primed (tests). */
export function callPathPrimed(): boolean {
  return warmUp.done;
}

/** Prime the call path once per process, in the next turn (never holds the process open). */
export function primeCallPath(): void {
  warmUp.schedule();
}
