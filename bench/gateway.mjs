#!/usr/bin/env node
// `npm run bench:gateway [-- --runs N] [--warmup 50,2000] [--fixtures raw,sdk] [--quick]
// [--out FILE] [--http-peers | --http-peers-only] [--clients 1,16,64] [--http-fixtures sdk]
// [--http-targets sdkhttp,gw,supergateway,mcpproxy] [--http-warmup N] [--http-seconds S]`
//
// stdio section (the default; skipped by --http-peers-only): the gateway's call latency (issue
// 18: `mcprt serve` call p50 ≤ 2.5× the raw SDK direct) against the floors it is read against,
// interleaved in one run, each measurement in a fresh process: the raw SDK client direct to the
// server (one process hop), the same client through a byte relay (two hops, no parsing), through
// a minimal SDK relay (two hops plus the SDK's server and client), through `mcprt serve` with
// history off, with history on, and with a 2026-07-28 client — read against the same 2026 client
// direct to the server's 2026 mode (`--modern`; like for like: what the gateway adds, not what
// the 2026 client costs). Medians and ratios per warm-up count.
//
// HTTP section (--http-peers adds it, --http-peers-only runs it alone; bench/lib/httpBench.mjs):
// `mcprt serve --listen http://127.0.0.1:0` (history on) against supergateway (--stateful) and
// mcp-proxy in streamable HTTP mode, each in front of the same stdio echo fixture (the SDK one by
// default, --http-fixtures), and the floor: the SDK echo server on the SDK's own HTTP transport.
// At each client count (--clients, default 1,16,64) raw SDK StreamableHTTPClientTransport clients
// (2025-11-25) make --http-warmup calls in all (1000), then call echo sequentially each for
// --http-seconds (5): calls/s of all clients, p50, p99, the target process's VmHWM. Targets
// alternate in every round. Verdicts at 16 clients: mcprt ≥ 1.5× the best peer's calls/s, p99
// no worse than its. `sgless` (supergateway's default stateless mode, a child per POST) is an
// extra target for --http-targets. --quick: one run, warm-up 50 (stdio) / 200 (HTTP), 2 s.
//
// Writes bench/results/gateway.json: the stdio section at the top level as before, the HTTP
// section under `http`; a section not run this time is kept from the file as it was.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';

import { DEFAULT_CALLS } from './lib/calls.mjs';
import { writeHome } from './lib/homes.mjs';
import { HTTP_DEFAULTS, HTTP_TARGETS, httpVerdictText, runHttpSection } from './lib/httpBench.mjs';
import { BENCH_DIR, SCRATCH_PARENT } from './lib/paths.mjs';
import { table } from './lib/report.mjs';
import { runPeer } from './lib/runPeer.mjs';
import { median, round } from './lib/stats.mjs';

const TARGETS = {
  sdk: { label: 'raw SDK direct', peer: 'sdk' },
  sdk26: { label: 'raw SDK direct, 2026', peer: 'sdk', era: '2026' },
  pipe: { label: 'byte relay', peer: 'gateway', via: 'relay-pipe' },
  relay: { label: 'SDK relay', peer: 'gateway', via: 'relay-sdk' },
  gwnh: { label: 'serve, no history', peer: 'gateway', history: false },
  gw: { label: 'mcprt serve', peer: 'gateway' },
  gw26: { label: 'serve, 2026', peer: 'gateway', era: '2026', base: 'sdk26' },
};
const LIMIT = 2.5;

function parseArgs(argv) {
  const opts = { runs: 3, warmups: [50, 2000], fixtures: ['raw', 'sdk'], calls: DEFAULT_CALLS };
  opts.stdio = true;
  opts.http = { ...HTTP_DEFAULTS, enabled: false };
  const list = (v) => v.split(',').filter(Boolean);
  opts.out = join(BENCH_DIR, 'results', 'gateway.json');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--runs') opts.runs = Number(value());
    else if (a === '--warmup') opts.warmups = value().split(',').map(Number);
    else if (a === '--fixtures') opts.fixtures = value().split(',');
    else if (a === '--out') opts.out = value();
    else if (a === '--http-peers') opts.http.enabled = true;
    else if (a === '--http-peers-only') {
      opts.http.enabled = true;
      opts.stdio = false;
    } else if (a === '--clients') opts.http.clients = list(value()).map(Number);
    else if (a === '--http-fixtures') opts.http.fixtures = list(value());
    else if (a === '--http-targets') opts.http.targets = list(value());
    else if (a === '--http-warmup') opts.http.warmup = Number(value());
    else if (a === '--http-seconds') opts.http.seconds = Number(value());
    else if (a === '--quick') {
      opts.runs = 1;
      opts.warmups = [50];
      opts.calls = { ...DEFAULT_CALLS, sequential: 200, concurrent: 400 };
      opts.http.warmup = 200;
      opts.http.seconds = 2;
    } else if (a === '--help' || a === '-h') {
      const lines = readFileSync(new URL(import.meta.url), 'utf8')
        .split('\n')
        .slice(1);
      const header = lines.slice(
        0,
        lines.findIndex((line) => !line.startsWith('//')),
      );
      console.log(header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  for (const c of opts.http.clients)
    if (!Number.isInteger(c) || c < 1) throw new Error(`bad --clients ${c}`);
  for (const t of opts.http.targets)
    if (!HTTP_TARGETS[t]) throw new Error(`bad --http-targets ${t}`);
  for (const f of opts.http.fixtures)
    if (f !== 'raw' && f !== 'sdk') throw new Error(`bad --http-fixtures ${f}`);
  if (!(opts.http.seconds > 0)) throw new Error(`bad --http-seconds ${opts.http.seconds}`);
  if (!Number.isInteger(opts.http.warmup) || opts.http.warmup < 0)
    throw new Error(`bad --http-warmup ${opts.http.warmup}`);
  for (const w of opts.warmups)
    if (!Number.isInteger(w) || w < 0) throw new Error(`bad --warmup ${w}`);
  for (const f of opts.fixtures)
    if (f !== 'raw' && f !== 'sdk') throw new Error(`bad fixture ${f}`);
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error(`bad --runs ${opts.runs}`);
  return opts;
}

const log = (line) => process.stderr.write(`${line}\n`);
const fmt = (v, d = 2) => (v === null || v === undefined ? '—' : v.toFixed(d));

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const began = performance.now();
  const loadAtStart = loadavg().map((x) => round(x));
  const scratch = mkdtempSync(join(SCRATCH_PARENT, 'mcprt-bench-gw-'));
  const sections = [opts.stdio ? 'stdio' : null, opts.http.enabled ? 'HTTP' : null].filter(Boolean);
  log(
    `mcprt gateway bench (${sections.join(' and ')}): ${opts.runs} run(s)` +
      (opts.stdio ? `, stdio warm-up ${opts.warmups.join(' and ')} calls` : '') +
      (opts.http.enabled
        ? `, HTTP ${opts.http.clients.join('/')} clients, ${opts.http.warmup} warm-up calls, ${opts.http.seconds} s`
        : '') +
      `; scratch ${scratch}`,
  );
  const stdio = opts.stdio ? await runStdioSection(opts, scratch) : null;
  const http = opts.http.enabled
    ? await runHttpSection({ ...opts.http, runs: opts.runs }, scratch, log)
    : null;
  rmSync(scratch, { recursive: true, force: true });
  const durationSec = Math.round((performance.now() - began) / 1000);
  console.log(
    `\nmcprt gateway bench — ${cpus().length} cores, Node ${process.version}, load ${loadAtStart.join(' ')} at start; ${durationSec} s\n`,
  );
  if (stdio) {
    console.log(stdio.out.join('\n\n'));
    console.log('\nTarget (issue 18): gateway call p50 ≤ 2.5× raw SDK direct');
    console.log(
      table([
        ['warm-up', 'server', 'client', 'against', 'measured', 'limit', 'verdict'],
        ...stdio.verdicts.map((v) => [
          String(v.warmup),
          v.fixture === 'raw' ? 'dependency-free' : 'SDK',
          v.target === 'gw26' ? '2026-07-28' : '2025-11-25',
          TARGETS[v.against].label,
          fmt(v.ratio),
          fmt(v.limit),
          v.met ? 'met' : 'missed',
        ]),
      ]),
    );
  }
  if (http) {
    if (stdio) console.log('');
    console.log(
      `HTTP: ${opts.http.warmup} warm-up calls, then each client calls echo sequentially for ${opts.http.seconds} s; medians of ${opts.runs} run(s)\n`,
    );
    console.log(http.text);
    console.log('\nHTTP verdicts (16 clients, 2025-11-25 clients):');
    console.log(httpVerdictText(http.verdicts));
  }
  const machine = {
    nproc: cpus().length,
    node: process.version,
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg().map((x) => round(x)),
  };
  const previous = readPrevious(opts.out);
  const output = stdio
    ? {
        generatedAt: new Date().toISOString(),
        durationSec,
        machine,
        options: {
          runs: opts.runs,
          warmups: opts.warmups,
          fixtures: opts.fixtures,
          calls: opts.calls,
        },
        targets: Object.fromEntries(Object.keys(TARGETS).map((t) => [t, TARGETS[t].label])),
        summary: stdio.summary,
        verdicts: stdio.verdicts,
        records: stdio.records,
      }
    : Object.fromEntries(Object.entries(previous).filter(([key]) => key !== 'http'));
  if (http) {
    output.http = {
      generatedAt: new Date().toISOString(),
      durationSec,
      machine,
      options: { ...opts.http, runs: opts.runs },
      targets: Object.fromEntries(opts.http.targets.map((t) => [t, HTTP_TARGETS[t].label])),
      summary: http.summary,
      verdicts: http.verdicts,
      records: http.records,
    };
  } else if (previous.http) output.http = previous.http;
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, await formatJson(output, opts.out));
  console.log(`\nresults: ${relative(process.cwd(), opts.out)}`);
  // A measurement that failed fails the bench; a peer's failed calls are shown, not fatal.
  const failures = [...(stdio?.records ?? []), ...(http?.records ?? [])].filter((r) => r.error);
  if (failures.length > 0) process.exitCode = 1;
}

/** The results file as it was (its sections not run this time are kept), or {}. */
function readPrevious(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/** The stdio section: every measurement, then medians, ratios and the issue-18 verdicts. */
async function runStdioSection(opts, scratch) {
  const names = Object.keys(TARGETS);
  const records = [];
  for (let run = 1; run <= opts.runs; run++) {
    for (const warmup of opts.warmups) {
      for (const fixture of opts.fixtures) {
        // Rotate the order from run to run, so no target is always first after a pause.
        const order = names.map((_, i) => names[(i + run) % names.length]);
        for (const target of order) {
          const spec = TARGETS[target];
          const home = join(scratch, `${target}-${fixture}`);
          const pidLog = `${home}.pids`;
          mkdirSync(home, { recursive: true });
          writeHome(home, {
            kind: 'mcprt',
            n: 1,
            fixture,
            pidLog,
            history: spec.history !== false,
          });
          const calls = { ...opts.calls, warmup };
          const result = await runPeer(spec.peer, {
            n: 1,
            fixture,
            pidLog,
            mode: 'latency',
            calls,
            home,
            ...(spec.via ? { via: spec.via } : {}),
            ...(spec.era ? { era: spec.era } : {}),
          });
          const r = { run, warmup, fixture, target, ...result };
          records.push(r);
          log(
            `  warm-up ${warmup} ${fixture} ${spec.label.padEnd(17)} run ${run}: ${r.error ? `FAILED: ${r.error.slice(0, 300)}` : `p50 ${r.seqP50Ms.toFixed(3)} ms, ${Math.round(r.throughput)}/s`}`,
          );
        }
      }
    }
  }
  const summary = {};
  const verdicts = [];
  const out = [];
  for (const warmup of opts.warmups) {
    for (const fixture of opts.fixtures) {
      const of = (target) =>
        records.filter(
          (r) => !r.error && r.warmup === warmup && r.fixture === fixture && r.target === target,
        );
      const med = (target, key) => median(of(target).map((r) => r[key]));
      const cell = ((summary[`${warmup}`] ??= {})[fixture] = {});
      const rows = [
        [
          `${fixture === 'raw' ? 'dependency-free' : 'SDK'} server, ${warmup} warm-up calls`,
          'p50 (ms)',
          'p99 (ms)',
          'calls/s, 16 in flight',
          '× direct (p50)',
          'per-run ×',
          '+ ms per call',
        ],
      ];
      for (const target of names) {
        if (of(target).length === 0) continue;
        // A 2026 client is read against the same client direct when that ran (like for like).
        const preferred = TARGETS[target].base ?? 'sdk';
        const baseTarget = of(preferred).length > 0 ? preferred : 'sdk';
        const sdk = med(baseTarget, 'seqP50Ms');
        const p50 = med(target, 'seqP50Ms');
        const perRun = of(target).map((r) => {
          const base = records.find(
            (b) =>
              !b.error &&
              b.target === baseTarget &&
              b.run === r.run &&
              b.warmup === warmup &&
              b.fixture === fixture,
          );
          return base ? r.seqP50Ms / base.seqP50Ms : null;
        });
        const ratio = p50 !== null && sdk ? p50 / sdk : null;
        cell[target] = {
          runs: of(target).length,
          seqP50Ms: round(p50, 3),
          seqP99Ms: round(med(target, 'seqP99Ms'), 3),
          throughput: round(med(target, 'throughput'), 0),
          ratio: round(ratio),
          perRun: perRun.map((x) => round(x)),
          base: baseTarget,
          addedMs: p50 !== null && sdk !== null ? round(p50 - sdk, 3) : null,
        };
        rows.push([
          TARGETS[target].label,
          fmt(p50, 3),
          fmt(med(target, 'seqP99Ms'), 3),
          fmt(med(target, 'throughput'), 0),
          fmt(ratio),
          perRun.map((x) => fmt(x)).join(' '),
          p50 !== null && sdk !== null ? fmt(p50 - sdk, 3) : '—',
        ]);
        if (target === 'gw' || target === 'gw26') {
          verdicts.push({
            warmup,
            fixture,
            target,
            against: baseTarget,
            ratio: round(ratio),
            limit: LIMIT,
            met: ratio !== null && ratio <= LIMIT,
          });
        }
      }
      out.push(table(rows));
    }
  }
  return { records, summary, verdicts, out };
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
  console.error(`gateway bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
