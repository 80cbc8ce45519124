// The call-latency protocol every target runs the same way: warm-up calls, then sequential
// calls (each timed), then a fixed number of calls with a fixed number in flight (throughput and
// latency under load). `callOnce` is the target's own "call echo on s0" (SDK, library, JSON-RPC).
// The default warm-up (2000 calls) brings V8's optimizing tiers to a steady state in the Node
// targets; Codex reference numbers used 50 (`--warmup 50`), see docs/performance.md.
import { performance } from 'node:perf_hooks';

import { percentile } from './stats.mjs';

export const DEFAULT_CALLS = { warmup: 2000, sequential: 500, concurrent: 2000, inflight: 16 };

export async function measureCalls(callOnce, plan = DEFAULT_CALLS) {
  for (let i = 0; i < plan.warmup; i++) await callOnce();
  const sequential = [];
  for (let i = 0; i < plan.sequential; i++) {
    const t = performance.now();
    await callOnce();
    sequential.push(performance.now() - t);
  }
  const underLoad = [];
  let issued = 0;
  const worker = async () => {
    while (issued < plan.concurrent) {
      issued += 1;
      const t = performance.now();
      await callOnce();
      underLoad.push(performance.now() - t);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: plan.inflight }, worker));
  const elapsed = performance.now() - t0;
  return {
    seqP50Ms: percentile(sequential, 50),
    seqP99Ms: percentile(sequential, 99),
    throughput: (plan.concurrent / elapsed) * 1000,
    loadP50Ms: percentile(underLoad, 50),
    loadP99Ms: percentile(underLoad, 99),
  };
}

/** Fail loudly when a target answers something other than the fixture's echo. */
export function checkEcho(result, fixture) {
  const text = result?.content?.[0]?.text;
  if (text !== `${fixture}: hi`) {
    throw new Error(`unexpected tool result: ${JSON.stringify(result)}`);
  }
}
