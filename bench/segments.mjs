#!/usr/bin/env node
// `node bench/segments.mjs [--runs N] [--warmup W] [--era 2025|2026] [--no-history]`: where a
// sequential `tools/call` through `mcprt serve` spends its time (docs/adr/0030). A raw SDK client
// spawns `mcprt serve` (one dependency-free server) with bench/lib/segmentTrace.mjs preloaded,
// makes W warm-up calls, then 500 timed ones, and reads per call, from the gateway's own clock:
// request (client's line read → request written to the server), server (request written →
// answer read: the server's work and two pipe wake-ups), response (answer read → answer
// written), client (answer written → next request read: the SDK client's work and two
// wake-ups); and the gateway's CPU per call over the 500 calls, its main thread and its other
// threads (V8's compiler and GC helpers) apart. Medians per run, then over runs.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { writeHome } from './lib/homes.mjs';
import { BENCH_DIR, CLI, SCRATCH_PARENT } from './lib/paths.mjs';
import { threadCpuMs } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';

const CALLS = 500;

function parseArgs(argv) {
  const opts = { runs: 3, warmup: 50, era: '2025', history: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--warmup') opts.warmup = Number(argv[++i]);
    else if (a === '--era') opts.era = argv[++i];
    else if (a === '--no-history') opts.history = false;
    else throw new Error(`unknown option ${a} (see the header of bench/segments.mjs)`);
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error(`bad --runs ${opts.runs}`);
  if (!Number.isInteger(opts.warmup) || opts.warmup < 0) throw new Error(`bad --warmup`);
  if (opts.era !== '2025' && opts.era !== '2026') throw new Error(`bad --era ${opts.era}`);
  return opts;
}

/** Per call: the four segments (µs), from the gateway's timestamps of its reads and writes. */
function segments(events) {
  events.sort((a, b) => a[1] - b[1]);
  const calls = [];
  let call = null;
  for (const [kind, start, end] of events) {
    if (kind === 'in') call = { in: start };
    else if (call === null) continue;
    else if (kind === 'srv' && call.srv === undefined) call.srv = start;
    else if (kind === 'back' && call.srv !== undefined && call.back === undefined)
      call.back = start;
    else if (kind === 'out' && call.back !== undefined) {
      calls.push({ ...call, out: start, outEnd: end });
      call = null;
    }
  }
  const timed = calls.slice(-CALLS - 1, -1); // the timed calls (the last one is the close)
  const us = (xs) => Math.round(median(xs) * 1000);
  return {
    requestUs: us(timed.map((c) => c.srv - c.in)),
    serverUs: us(timed.map((c) => c.back - c.srv)),
    responseUs: us(timed.map((c) => c.out - c.back)),
    clientUs: us(timed.slice(0, -1).map((c, i) => timed[i + 1].in - c.outEnd)),
  };
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function run(opts, scratch, n) {
  const home = writeHome(join(scratch, `home-${n}`), {
    kind: 'mcprt',
    n: 1,
    fixture: 'raw',
    history: opts.history,
  });
  const traceFile = join(scratch, `trace-${n}.json`);
  const client = new Client(
    { name: 'mcprt-bench-segments', version: '0.1.0' },
    opts.era === '2026' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', join(BENCH_DIR, 'lib', 'segmentTrace.mjs'), CLI, '--home', home, 'serve'],
    env: { ...process.env, MCPRT_SEGMENT_OUT: traceFile },
    stderr: 'ignore',
  });
  await client.connect(transport);
  for (;;) {
    const { tools } = await client.listTools();
    if (tools.some((t) => t.name === 's0__echo')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const call = () => client.callTool({ name: 's0__echo', arguments: { message: 'hi' } });
  for (let i = 0; i < opts.warmup; i++) await call();
  const cpu0 = threadCpuMs(transport.pid);
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  const cpu1 = threadCpuMs(transport.pid);
  const pid = transport.pid;
  await client.close();
  // The trace is written when the gateway exits.
  while (pid !== null && isAlive(pid)) await new Promise((r) => setTimeout(r, 10));
  const perCall = (a, b) => Math.round(((b - a) * 1000) / CALLS);
  return {
    p50Ms: median(times),
    ...segments(JSON.parse(readFileSync(traceFile, 'utf8'))),
    mainCpuUs: cpu0 && cpu1 ? perCall(cpu0.main, cpu1.main) : null,
    otherCpuUs: cpu0 && cpu1 ? perCall(cpu0.others, cpu1.others) : null,
  };
}

const opts = parseArgs(process.argv.slice(2));
const scratch = mkdtempSync(join(SCRATCH_PARENT, 'mcprt-bench-seg-'));
try {
  const results = [];
  for (let n = 1; n <= opts.runs; n++) {
    const r = await run(opts, scratch, n);
    results.push(r);
    console.log(`run ${n}: ${JSON.stringify(r)}`);
  }
  const keys = Object.keys(results[0]);
  const summary = Object.fromEntries(keys.map((k) => [k, median(results.map((r) => r[k]))]));
  console.log(
    `median of ${opts.runs} (era ${opts.era}, ${opts.warmup} warm-up calls, history ` +
      `${opts.history ? 'on' : 'off'}): ${JSON.stringify(summary)}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
