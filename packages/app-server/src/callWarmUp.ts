/**
 * Priming of the app-server's side of a tool call (ADR 0027; the runtime primes its own side,
 * runtime/manager/callPathWarmUp.ts). V8 compiles each function on its first run, and the
 * protocol package builds a method's params check on its first request: the first
 * `mcpServer/tool/call` of a process paid that for every step. Once per process, in the turn
 * after a thread starts its servers (while they start), the pure steps run once on synthetic
 * data: the call's params check and its `item/started`, `item/completed` and response texts.
 * Nothing is sent to the client or to a server, and no thread is touched.
 */

import { ProcessWarmUp } from '@mcprt/base';
import { clientRequests, parseParams } from '@mcprt/protocol';

import { warmUpToolCallText } from './toolCallText.js';

const METHOD = 'mcpServer/tool/call';
/** Params as a client's JSON text gives them. */
const PARAMS =
  '{"threadId":"warm-up","server":"warm-up","tool":"warm-up","arguments":{"message":"warm-up"}}';

/** The warm-ups, each in the module it primes. */
const warmUp = new ProcessWarmUp(() => {
  parseParams(clientRequests[METHOD].params, JSON.parse(PARAMS), METHOD);
  warmUpToolCallText();
});

/** Whether this process's tool-call handling has been primed (tests). */
export function toolCallHandlingPrimed(): boolean {
  return warmUp.done;
}

/** Prime once per process, in the next turn (never holds the process open). */
export function primeToolCallHandling(): void {
  warmUp.schedule();
}
