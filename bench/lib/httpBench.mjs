// The HTTP section of the gateway bench (`npm run bench:gateway -- --http-peers`): `mcprt serve
// --listen http://127.0.0.1:0` (history on) against the HTTP MCP proxies users would pick instead
// — supergateway (`--stateful`: one child per session; its default stateless mode starts a child
// per POST and is the optional target `sgless`) and mcp-proxy (one shared child) — each in front
// of the same stdio echo fixture, and against the floor: the SDK echo server on the SDK's own
// HTTP transport (bench/fixtures/sdk-http-echo.mjs). At each client count, rounds alternate the
// targets (order rotating) so the host's noise hits all alike; every measurement is a fresh
// bench/peers/http.mjs process with fresh target processes. Medians over runs; ratios between
// targets of the same run. Verdicts at 16 clients: mcprt's throughput ≥ 1.5× the best peer's,
// and its p99 no worse than that peer's.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { packageBin } from '../peers/httpTargets.mjs';
import { writeHome } from './homes.mjs';
import { table } from './report.mjs';
import { runPeer } from './runPeer.mjs';
import { median, round } from './stats.mjs';

export const HTTP_TARGETS = {
  sdkhttp: { label: 'SDK HTTP server (floor)' },
  gw: { label: 'mcprt serve' },
  supergateway: {
    label: `supergateway ${packageBin('supergateway').version} --stateful`,
    peer: true,
  },
  mcpproxy: { label: `mcp-proxy ${packageBin('mcp-proxy').version}`, peer: true },
  sgless: {
    label: `supergateway ${packageBin('supergateway').version}, stateless`,
    peer: true,
  },
};
export const HTTP_DEFAULTS = {
  targets: ['sdkhttp', 'gw', 'supergateway', 'mcpproxy'],
  clients: [1, 16, 64],
  fixtures: ['sdk'],
  warmup: 1000,
  seconds: 5,
};
export const VERDICT_CLIENTS = 16;
export const THROUGHPUT_FACTOR = 1.5;

const fmt = (v, d = 2) => (v === null || v === undefined ? '—' : v.toFixed(d));

/** Run every measurement of the section; returns `{records, summary, verdicts, text}`. */
export async function runHttpSection(opts, scratch, log) {
  const { runs, fixtures, clients, warmup, seconds, targets } = opts;
  const records = [];
  let round_ = 0;
  for (let run = 1; run <= runs; run++) {
    for (const fixture of fixtures) {
      for (const count of clients) {
        round_ += 1;
        const order = targets.map((_, i) => targets[(i + round_) % targets.length]);
        for (const target of order) {
          const home = join(scratch, `http-${target}-${fixture}-${run}-${count}`);
          mkdirSync(home, { recursive: true });
          const pidLog = `${home}.pids`;
          writeHome(home, { kind: 'mcprt', n: 1, fixture, pidLog, history: true });
          const options = { target, fixture, pidLog, home, clients: count, warmup, seconds };
          const result = await runPeer('http', options, 300_000);
          const r = { run, fixture, clients: count, target, ...result };
          records.push(r);
          const label = HTTP_TARGETS[target].label.padEnd(30);
          log(
            `  http ${fixture} ${String(count).padStart(2)} clients ${label} run ${run}: ${
              r.error
                ? `FAILED: ${r.error.slice(0, 400)}`
                : `${Math.round(r.throughput)}/s, p50 ${fmt(r.p50Ms, 2)} ms, p99 ${fmt(r.p99Ms, 2)} ms, ${fmt(r.peerHwmMb, 0)} MB${r.errors ? `, ${r.errors} failed calls: ${r.errorSample}` : ''}`
            }`,
          );
        }
      }
    }
  }
  return { records, ...summarize(opts, records) };
}

function summarize({ fixtures, clients, targets }, records) {
  const summary = {};
  const verdicts = [];
  const out = [];
  for (const fixture of fixtures) {
    const rows = [
      [
        `${fixture === 'raw' ? 'dependency-free' : 'SDK'} echo server, HTTP`,
        'clients',
        'calls/s',
        'p50 (ms)',
        'p99 (ms)',
        '× floor calls/s',
        'per-run calls/s',
        'peer VmHWM (MB)',
        'tree RSS (MB)',
        'tree CPU ms/call',
        'peer CPU ms/call',
        'client CPU ms/call',
        'failed calls',
      ],
    ];
    for (const count of clients) {
      const of = (target) =>
        records.filter(
          (r) => !r.error && r.fixture === fixture && r.clients === count && r.target === target,
        );
      const med = (target, key) => median(of(target).map((r) => r[key]));
      const cell = ((summary[fixture] ??= {})[count] = {});
      const floor = med('sdkhttp', 'throughput');
      for (const target of targets) {
        const ok = of(target);
        const failed = records.filter(
          (r) => r.error && r.fixture === fixture && r.clients === count && r.target === target,
        );
        const tput = med(target, 'throughput');
        const errors = ok.reduce((a, r) => a + (r.errors ?? 0), 0);
        cell[target] = {
          runs: ok.length,
          failedRuns: failed.length,
          throughput: round(tput, 0),
          p50Ms: round(med(target, 'p50Ms'), 3),
          p99Ms: round(med(target, 'p99Ms'), 3),
          peerHwmMb: round(med(target, 'peerHwmMb'), 1),
          treeRssMb: round(med(target, 'treeRssMb'), 1),
          treeProcesses: med(target, 'treeProcesses'),
          targetCpuMsPerCall: round(med(target, 'targetCpuMsPerCall'), 3),
          peerCpuMsPerCall: round(med(target, 'peerCpuMsPerCall'), 3),
          clientCpuMsPerCall: round(med(target, 'clientCpuMsPerCall'), 3),
          failedCalls: errors,
          xFloor: tput !== null && floor ? round(tput / floor) : null,
          negotiated: [...new Set(ok.flatMap((r) => r.negotiated ?? []))],
        };
        rows.push([
          HTTP_TARGETS[target].label,
          String(count),
          ok.length ? fmt(tput, 0) : `FAILED in ${failed.length} run(s)`,
          fmt(med(target, 'p50Ms'), 2),
          fmt(med(target, 'p99Ms'), 2),
          target === 'sdkhttp' ? '1.00' : fmt(cell[target].xFloor),
          ok.map((r) => fmt(r.throughput, 0)).join(' ') +
            (ok.length && failed.length ? ` (+${failed.length} failed)` : ''),
          fmt(med(target, 'peerHwmMb'), 0),
          fmt(med(target, 'treeRssMb'), 0),
          fmt(med(target, 'targetCpuMsPerCall'), 2),
          fmt(med(target, 'peerCpuMsPerCall'), 2),
          fmt(med(target, 'clientCpuMsPerCall'), 2),
          String(errors),
        ]);
      }
      if (count === VERDICT_CLIENTS && targets.includes('gw')) {
        verdicts.push(verdict(fixture, count, targets, records, cell));
      }
    }
    out.push(table(rows));
  }
  return { summary, verdicts, text: out.join('\n\n') };
}

function verdict(fixture, count, targets, records, cell) {
  const peers = targets.filter((t) => HTTP_TARGETS[t].peer && cell[t].throughput !== null);
  const best = peers.reduce(
    (a, t) => (a && cell[a].throughput >= cell[t].throughput ? a : t),
    null,
  );
  const gw = cell.gw;
  if (!best || gw.throughput === null) {
    return { fixture, clients: count, best, throughputMet: null, p99Met: null, note: 'no data' };
  }
  const perRun = records
    .filter((r) => !r.error && r.fixture === fixture && r.clients === count && r.target === 'gw')
    .map((r) => {
      const b = records.find(
        (x) =>
          !x.error &&
          x.fixture === fixture &&
          x.clients === count &&
          x.target === best &&
          x.run === r.run,
      );
      return b ? round(r.throughput / b.throughput) : null;
    });
  const ratio = gw.throughput / cell[best].throughput;
  const lowestP99 = peers.reduce((a, t) => (a && cell[a].p99Ms <= cell[t].p99Ms ? a : t), null);
  return {
    fixture,
    clients: count,
    best,
    throughputRatio: round(ratio),
    perRunThroughputRatio: perRun,
    throughputLimit: THROUGHPUT_FACTOR,
    throughputMet: ratio >= THROUGHPUT_FACTOR,
    p99Ms: gw.p99Ms,
    bestP99Ms: cell[best].p99Ms,
    p99Met: gw.p99Ms <= cell[best].p99Ms,
    lowestPeerP99: lowestP99,
    lowestPeerP99Ms: cell[lowestP99].p99Ms,
    targetCpuMsPerCall: gw.targetCpuMsPerCall,
    bestTargetCpuMsPerCall: cell[best].targetCpuMsPerCall,
    peerCpuMsPerCall: gw.peerCpuMsPerCall,
    bestPeerCpuMsPerCall: cell[best].peerCpuMsPerCall,
  };
}

/** The verdict lines, as printed. */
export function httpVerdictText(verdicts) {
  const rows = [['server', 'clients', 'verdict', 'mcprt serve', 'best peer', 'measured', 'result']];
  for (const v of verdicts) {
    const server = v.fixture === 'raw' ? 'dependency-free' : 'SDK';
    if (!v.best) {
      rows.push([server, String(v.clients), '—', '—', '—', 'no data', 'not measured']);
      continue;
    }
    const bestLabel = HTTP_TARGETS[v.best].label;
    rows.push([
      server,
      String(v.clients),
      `calls/s ≥ ${v.throughputLimit}× best peer`,
      '',
      bestLabel,
      `${fmt(v.throughputRatio)}× (per run ${v.perRunThroughputRatio.map((x) => fmt(x)).join(' ')})`,
      v.throughputMet ? 'met' : 'missed',
    ]);
    rows.push([
      server,
      String(v.clients),
      'p99 ≤ best peer p99',
      `${fmt(v.p99Ms)} ms`,
      bestLabel,
      `${fmt(v.bestP99Ms)} ms`,
      v.p99Met ? 'met' : 'missed',
    ]);
    if (v.lowestPeerP99 !== v.best) {
      rows.push([
        server,
        String(v.clients),
        '(p99 ≤ lowest peer p99)',
        `${fmt(v.p99Ms)} ms`,
        HTTP_TARGETS[v.lowestPeerP99].label,
        `${fmt(v.lowestPeerP99Ms)} ms`,
        v.p99Ms <= v.lowestPeerP99Ms ? 'met' : 'missed',
      ]);
    }
    rows.push([
      server,
      String(v.clients),
      '(info: tree CPU ms/call)',
      fmt(v.targetCpuMsPerCall),
      bestLabel,
      fmt(v.bestTargetCpuMsPerCall),
      '',
    ]);
    rows.push([
      server,
      String(v.clients),
      '(info: proxy process CPU ms/call)',
      fmt(v.peerCpuMsPerCall),
      bestLabel,
      fmt(v.bestPeerCpuMsPerCall),
      '',
    ]);
  }
  return table(rows);
}
