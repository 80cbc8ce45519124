// The 2026-07-28 row of `npm run bench` (issue 13): start → ready and sequential call p50
// against a 2026-only stdio server, mcprt's library path vs the raw SDK client, both in `auto`
// mode (the SDK probes on a short-lived sibling process, mcprt in place on its one process; see
// docs/adr/0018-revision-probe.md). Runs interleaved, each in a fresh process; target ≤ 1.15×.
// Alone: `node bench/revision2026.mjs [--runs N] [--lat-runs N] [--quick]` (prints the row).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { DEFAULT_CALLS } from './lib/calls.mjs';

import { runPeer } from './lib/runPeer.mjs';
import { median, round } from './lib/stats.mjs';
import { BENCH_DIR, SCRATCH_PARENT } from './lib/paths.mjs';

export const REVISION2026_TARGET = 1.15;
const FIXTURE = join(BENCH_DIR, 'fixtures', 'modern-echo.mjs');

export async function measureRevision2026({ scratch, runs, latRuns, calls, log }) {
  const command = process.execPath;
  const server = `[mcp_servers.s0]\ncommand = ${JSON.stringify(command)}\nargs = [${JSON.stringify(FIXTURE)}]\nstartup_timeout_sec = 120\n`;
  // `lib` as configured by default (history on); `libnh` with history off (its cost is the
  // history's, the same on both revisions: docs/performance.md).
  const homes = {};
  for (const [side, tail] of [
    ['lib', ''],
    ['libnh', '\n[history]\nenabled = false\n'],
  ]) {
    homes[side] = join(scratch, `revision2026-${side}`);
    mkdirSync(homes[side], { recursive: true });
    writeFileSync(join(homes[side], 'config.toml'), `${server}${tail}`);
  }
  const base = { command, args: [FIXTURE], calls };
  const records = [];
  const measure = async (mode, side, run) => {
    const r = await runPeer('revision2026', { ...base, home: homes[side], mode, side });
    records.push({ mode, side, run, ...r });
    log(
      `  2026-07-28 ${mode} ${side.padEnd(3)} run ${run}: ${r.error ? `FAILED: ${r.error.slice(0, 300)}` : mode === 'start' ? `${Math.round(r.readyMs)} ms` : `p50 ${r.seqP50Ms?.toFixed(3)} ms`}`,
    );
  };
  await measure('start', 'sdk', 0); // warm-up
  await measure('start', 'lib', 0);
  records.length = 0;
  const sides = ['sdk', 'lib', 'libnh'];
  const rotated = (run) => sides.map((_, i) => sides[(i + run) % sides.length]);
  for (let run = 1; run <= runs; run++)
    for (const side of rotated(run)) await measure('start', side, run);
  for (let run = 1; run <= latRuns; run++)
    for (const side of rotated(run)) await measure('latency', side, run);
  const of = (mode, side, key) =>
    median(
      records.filter((r) => r.mode === mode && r.side === side && !r.error).map((r) => r[key]),
    );
  const summary = {
    startMs: {
      sdk: round(of('start', 'sdk', 'readyMs'), 1),
      lib: round(of('start', 'lib', 'readyMs'), 1),
    },
    callP50Ms: {
      sdk: round(of('latency', 'sdk', 'seqP50Ms'), 4),
      lib: round(of('latency', 'lib', 'seqP50Ms'), 4),
      libnh: round(of('latency', 'libnh', 'seqP50Ms'), 4),
    },
    failures: records.filter((r) => r.error).map((r) => `${r.mode} ${r.side}: ${r.error}`),
  };
  summary.startRatio = round(summary.startMs.lib / summary.startMs.sdk, 3);
  summary.callRatio = round(summary.callP50Ms.lib / summary.callP50Ms.sdk, 3);
  summary.callRatioNoHistory = round(summary.callP50Ms.libnh / summary.callP50Ms.sdk, 3);
  summary.met =
    summary.startRatio !== null &&
    summary.callRatio !== null &&
    summary.startRatio <= REVISION2026_TARGET &&
    summary.callRatio <= REVISION2026_TARGET;
  return { summary, records };
}

export function renderRevision2026({ summary }) {
  return [
    '2026-07-28 (2026-only stdio server, auto; library vs raw SDK client), target ≤ 1.15×:',
    `  start → ready  sdk ${summary.startMs.sdk} ms, mcprt ${summary.startMs.lib} ms → ${summary.startRatio}×`,
    `  call p50       sdk ${summary.callP50Ms.sdk} ms, mcprt ${summary.callP50Ms.lib} ms → ${summary.callRatio}× (history off: ${summary.callP50Ms.libnh} ms → ${summary.callRatioNoHistory}×)`,
    `  ${summary.met ? 'met' : 'NOT met'}${summary.failures.length ? `; ${summary.failures.length} failed runs` : ''}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const num = (flag, fallback) =>
    argv.includes(flag) ? Number(argv[argv.indexOf(flag) + 1]) : fallback;
  const quick = argv.includes('--quick');
  const scratch = mkdtempSync(join(SCRATCH_PARENT, 'mcprt-bench-2026-'));
  const result = await measureRevision2026({
    scratch,
    runs: quick ? 1 : num('--runs', 5),
    latRuns: quick ? 1 : num('--lat-runs', 5),
    calls: quick ? { warmup: 20, sequential: 100, concurrent: 400, inflight: 16 } : DEFAULT_CALLS,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  rmSync(scratch, { recursive: true, force: true });
  console.log(renderRevision2026(result));
  if (result.summary.failures.length > 0) process.exitCode = 1;
}
