// The call-latency protocol every target runs the same way: the first 10 calls after the thread
// (or client) is ready, each timed (what an agent's session feels first), more warm-up calls up to
// `warmup` in all, then sequential calls (each timed), then a fixed number of calls with a fixed
// number in flight (throughput and latency under load). `callOnce` is the target's own "call echo
// on s0" (SDK, library, JSON-RPC); `check` verifies the first answer. The bench measures every
// target at 50 warm-up calls (an agent session's first calls, where V8 has not optimized the hot
// paths yet; the figures the targets use) and at 2,000 (a long-lived app-server's steady state),
// each in its own fresh process (docs/performance.md).
import { performance } from 'node:perf_hooks';

import { percentile } from './stats.mjs';

export const WARMUPS = [50, 2000];
export const FIRST_CALLS = 10;
export const DEFAULT_CALLS = { warmup: 2000, sequential: 500, concurrent: 2000, inflight: 16 };

export async function measureCalls(callOnce, plan = DEFAULT_CALLS, check = () => {}) {
  const first = [];
  for (let i = 0; i < Math.max(FIRST_CALLS, plan.warmup); i++) {
    const t = performance.now();
    const result = await callOnce();
    if (i < FIRST_CALLS) first.push(performance.now() - t);
    if (i === 0) check(result);
  }
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
    firstCallMs: first[0],
    first10P50Ms: percentile(first, 50),
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
