#!/usr/bin/env node
// `npm run bench [-- --vs-codex] [--runs N] [--lat-runs N] [--warmups 50,2000] [--targets LIST]
// [--fixtures raw,sdk] [--quick] [--out FILE] [--keep]`:
// mcprt's library, app-server and gateway paths against a raw MCP SDK client (and, with
// --vs-codex, Codex 0.171.0's app-server) over the same stdio servers, interleaved in one run,
// each measurement in a fresh process; tool calls at 50 and at 2,000 warm-up calls. Prints
// medians, p99 and ratios, the issues' targets, the tool search rows (bench/toolSearch.mjs), and
// writes bench/results/latest.json. See docs/performance.md.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';

import { DEFAULT_CALLS, WARMUPS } from './lib/calls.mjs';
import { CodexUnavailableError, ensureCodex } from './lib/codex.mjs';
import { writeHome } from './lib/homes.mjs';
import { BENCH_DIR, CLI, REPO_ROOT, RUNTIME_DIST, SCRATCH_PARENT } from './lib/paths.mjs';
import { aggregate, evaluateTargets, renderReport, TARGET_LABELS } from './lib/report.mjs';
import { runPeer } from './lib/runPeer.mjs';
import { measureRevision2026, renderRevision2026 } from './revision2026.mjs';
import { measureToolSearch, renderToolSearch } from './toolSearch.mjs';

function parseArgs(argv) {
  const opts = { vsCodex: false, runs: 5, latRuns: 5, quick: false, keep: false };
  opts.out = join(BENCH_DIR, 'results', 'latest.json');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--vs-codex') opts.vsCodex = true;
    else if (a === '--runs') opts.runs = Number(value());
    else if (a === '--lat-runs') opts.latRuns = Number(value());
    else if (a === '--warmup' || a === '--warmups') opts.warmups = numbers(a, value());
    else if (a === '--targets') opts.only = value().split(',');
    else if (a === '--fixtures') opts.fixtures = value().split(',');
    else if (a === '--quick') opts.quick = true;
    else if (a === '--keep') opts.keep = true;
    else if (a === '--out') opts.out = value();
    else if (a === '--help' || a === '-h') {
      const header = readFileSync(new URL(import.meta.url), 'utf8')
        .split('\n')
        .slice(1, 8);
      console.log(header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  if (opts.quick) {
    opts.runs = argv.includes('--runs') ? opts.runs : 1;
    opts.latRuns = argv.includes('--lat-runs') ? opts.latRuns : 1;
  }
  opts.warmups ??= opts.quick ? [WARMUPS[0], 200] : WARMUPS;
  opts.fixtures ??= ['raw', 'sdk'];
  if (opts.fixtures.some((f) => f !== 'raw' && f !== 'sdk')) {
    throw new Error(`--fixtures: raw and/or sdk, got ${opts.fixtures.join(',')}`);
  }
  const unknown = (opts.only ?? []).filter((t) => !(t in TARGET_LABELS));
  if (unknown.length > 0) {
    throw new Error(
      `--targets: unknown ${unknown.join(', ')} (known: ${Object.keys(TARGET_LABELS).join(', ')})`,
    );
  }
  return opts;
}

function numbers(option, text) {
  const list = text.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new Error(`${option} takes whole numbers separated by commas, got ${text}`);
  }
  return list;
}

const log = (line) => process.stderr.write(`${line}\n`);
const NO_HISTORY = new Set(['libnh', 'appnh']);

function machine() {
  return {
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const began = performance.now();
  const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  if (!existsSync(CLI) || !existsSync(join(RUNTIME_DIST, 'index.js'))) {
    throw new Error(
      `built output missing (${relative(REPO_ROOT, CLI)}): run \`npm run build\` first`,
    );
  }
  let codex = null;
  let codexProblem = null;
  if (opts.vsCodex) {
    try {
      codex = ensureCodex(log);
      log(`Codex: ${codex.version} (${codex.bin})`);
    } catch (error) {
      if (!(error instanceof CodexUnavailableError)) throw error;
      codexProblem = error.message;
      log(
        `\n*** --vs-codex: Codex is not available, so it is left out of this run:\n*** ${error.message}\n`,
      );
    }
  }
  const wanted = (t) => opts.only === undefined || opts.only.includes(t);
  const targets = ['sdk', 'lib', 'app', ...(codex ? ['codex'] : [])].filter(wanted);
  const fixtures = opts.fixtures;
  const { sequential, concurrent, inflight } = DEFAULT_CALLS;
  const calls = opts.quick
    ? { sequential: 100, concurrent: 400, inflight }
    : { sequential, concurrent, inflight };
  const warmups = opts.warmups;
  const scratch = mkdtempSync(join(SCRATCH_PARENT, 'mcprt-bench-'));
  const home = (target, fixture, n) => {
    const kind = target === 'codex' ? 'codex' : 'mcprt';
    const dir = join(scratch, `${target}-${fixture}-${n}`);
    const pidLog = join(scratch, `${target}-${fixture}-${n}.pids`);
    const history = !NO_HISTORY.has(target);
    if (!existsSync(dir)) writeHome(dir, { kind, n, fixture, pidLog, history });
    return { dir, pidLog };
  };

  const measure = async (kind, target, fixture, n, run, extra = {}, warmup = warmups[0]) => {
    const { dir, pidLog } = home(target, fixture, n);
    const options = { n, fixture, pidLog, mode: kind, calls: { ...calls, warmup }, ...extra };
    let result;
    if (target === 'sdk') result = await runPeer('sdk', options);
    else if (target === 'sdk26') result = await runPeer('sdk', { ...options, era: '2026' });
    else if (target === 'lib' || target === 'libnh') {
      result = await runPeer('lib', { ...options, home: dir });
    } else if (target === 'gw' || target === 'gw26') {
      result = await runPeer('gateway', {
        ...options,
        home: dir,
        era: target === 'gw26' ? '2026' : '2025',
      });
    } else {
      const rpcTarget = target === 'codex' ? 'codex' : 'app';
      result = await runPeer('rpc', {
        ...options,
        target: rpcTarget,
        home: dir,
        codexBin: codex?.bin,
      });
    }
    if (!result.error && result.startMs === undefined) result.startMs = result.readyMs;
    return { kind, target, fixture, n, run, ...(kind === 'latency' ? { warmup } : {}), ...result };
  };

  const records = [];
  const record = (r) => {
    records.push(r);
    const what =
      r.kind === 'start'
        ? `${Math.round(r.startMs ?? NaN)} ms`
        : `first 10 p50 ${r.first10P50Ms?.toFixed(3)} ms, p50 ${r.seqP50Ms?.toFixed(3)} ms, ${Math.round(r.throughput ?? NaN)}/s`;
    const at = r.kind === 'latency' ? ` @${r.warmup}` : '';
    log(
      `  ${r.kind} ${r.fixture} N=${r.n} ${TARGET_LABELS[r.target].padEnd(9)}${at} run ${r.run}: ${r.error ? `FAILED: ${r.error.slice(0, 300)}` : what}`,
    );
  };
  // Rotate the order of targets from run to run, so none is always first after a pause.
  const rotate = (list, run) => list.map((_, i) => list[(i + run) % list.length]);
  const rotated = (run) => rotate(targets, run);
  // Tool calls also run mcprt with history off (how much of its cost is the durable history), and
  // through `mcprt serve` (an MCP client → the gateway → the server), in both protocol eras.
  // A 2026 client through the gateway is read against the same client direct (`sdk26`, the
  // server's 2026 mode) — what the gateway adds, not what the 2026 client costs.
  const latencyTargets = [
    ...targets,
    ...['libnh', 'appnh', 'gw', 'gw26'].filter(wanted),
    ...(wanted('gw26') && wanted('sdk') ? ['sdk26'] : []),
  ];

  log(
    `mcprt bench: ${targets.map((t) => TARGET_LABELS[t]).join(', ')}; ${opts.runs} start-up runs, ${opts.latRuns} latency runs; scratch ${scratch}`,
  );
  log('warm-up (not recorded)…');
  for (const target of targets) await measure('start', target, 'raw', 1, 0);

  // `mcpServerStatus/list` on a thread over the 50 dependency-free servers, measured inside the
  // N=50 start-up runs. Codex's `detail: full` re-probes (spawns) every server per request: it is
  // measured in the first run only, so 50-process bursts do not disturb the other runs.
  const statusPlan = (target, run) =>
    target === 'app'
      ? [
          { detail: 'full', calls: 100 },
          { detail: 'toolsAndAuthOnly', calls: 100 },
        ]
      : target === 'codex'
        ? [
            { detail: 'toolsAndAuthOnly', calls: 100 },
            ...(run === 1 ? [{ detail: 'full', calls: 2, warmup: 0 }] : []),
          ]
        : undefined;
  for (let run = 1; run <= opts.runs; run++) {
    log(`start-up, run ${run}/${opts.runs}`);
    for (const fixture of fixtures) {
      for (const n of [1, 10, 50]) {
        for (const target of rotated(run)) {
          const statusList = fixture === 'raw' && n === 50 ? statusPlan(target, run) : undefined;
          record(await measure('start', target, fixture, n, run, statusList ? { statusList } : {}));
        }
      }
    }
  }
  // Every target at every warm-up count, each in a fresh process; the order of the warm-ups and
  // of the targets rotates from run to run.
  for (let run = 1; run <= opts.latRuns; run++) {
    log(`tool calls, run ${run}/${opts.latRuns}`);
    for (const fixture of fixtures) {
      for (const warmup of rotate(warmups, run)) {
        for (const target of rotate(latencyTargets, run)) {
          record(await measure('latency', target, fixture, 1, run, {}, warmup));
        }
      }
    }
  }
  log('inventory…');
  const inventory = await runPeer('inventory', {});
  log('2026-07-28…');
  const revision2026 = await measureRevision2026({ ...opts, scratch, calls, log });
  log('tool search…');
  const toolSearch = await measureToolSearch({ runs: opts.quick ? 1 : 3, quick: opts.quick, log });

  const summary = aggregate(records, inventory);
  const targetsMet = evaluateTargets(summary, fixtures, warmups);
  const report = renderReport(summary, targetsMet, {
    fixtures,
    warmups,
    withCodex: codex !== null,
  });
  const info = { ...machine(), loadAverageAtStart: loadAtStart };
  const durationSec = Math.round((performance.now() - began) / 1000);
  console.log(
    `\nmcprt bench — ${info.nproc} cores, ${info.memoryGb} GB, Node ${info.node}, load ${info.loadAverageAtStart.join(' ')} at start; ${durationSec} s\n`,
  );
  console.log(report);
  console.log(`\n${renderRevision2026(revision2026)}`);
  console.log(`\n${renderToolSearch(toolSearch)}`);
  if (codexProblem) console.log(`\n--vs-codex: Codex was not measured: ${codexProblem}`);

  const output = {
    generatedAt: new Date().toISOString(),
    durationSec,
    machine: { ...info, loadAverageAtEnd: loadavg().map((x) => Math.round(x * 100) / 100) },
    options: { ...opts, calls, warmups, out: undefined },
    versions: {
      mcprtRuntime: packageVersion(join(REPO_ROOT, 'packages', 'runtime')),
      sdkClient: packageVersion(join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'client')),
      sdkServer: packageVersion(join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server')),
      codex: codex?.version ?? null,
    },
    codexProblem,
    summary,
    targets: targetsMet,
    records,
    revision2026,
    toolSearch,
  };
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, await formatJson(output, opts.out));
  console.log(`\nresults: ${relative(process.cwd(), opts.out)}`);
  if (!opts.keep) rmSync(scratch, { recursive: true, force: true });
  else log(`scratch kept: ${scratch}`);
  if (codexProblem) process.exitCode = 3;
  else if (
    summary.failures.length +
      revision2026.summary.failures.length +
      toolSearch.summary.failures.length >
    0
  ) {
    process.exitCode = 1;
  }
}

/** Prettier-formatted JSON (the repository's format check covers bench/results too). */
async function formatJson(value, file) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  try {
    const prettier = await import('prettier');
    const config = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(text, { ...config, parser: 'json' });
  } catch {
    return text;
  }
}

main().catch((error) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
