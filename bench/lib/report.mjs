// Turns the run's raw measurements into medians, ratios, the printed table and the target
// verdicts. Ratios are always between targets of the same run (interleaved), never across runs.
import { median, round } from './stats.mjs';

export const TARGET_LABELS = {
  sdk: 'raw SDK',
  lib: 'mcprt lib',
  app: 'mcprt app',
  codex: 'Codex',
  libnh: 'lib, no history',
  appnh: 'app, no history',
  gw: 'mcprt serve',
  gw26: 'serve, 2026',
};

const METRICS_START = ['startMs', 'rssMb', 'treeRssMb', 'initializedMs', 'threadStartMs'];
const METRICS_LATENCY = ['seqP50Ms', 'seqP99Ms', 'throughput', 'loadP50Ms', 'loadP99Ms'];

function medians(records, keys) {
  const out = { runs: records.length };
  for (const key of keys) out[key] = round(median(records.map((r) => r[key])), 3);
  return out;
}

/** Medians per scenario and target (failed runs are counted, not averaged in). */
export function aggregate(records, inventory) {
  const ok = records.filter((r) => !r.error);
  const summary = { start: {}, latency: {}, statusList: {}, inventory, failures: [] };
  for (const r of records.filter((x) => x.error)) {
    summary.failures.push({
      kind: r.kind,
      fixture: r.fixture,
      n: r.n,
      target: r.target,
      error: r.error,
    });
  }
  for (const r of ok) {
    if (r.kind === 'start') {
      const byN = ((summary.start[r.fixture] ??= {})[r.n] ??= {});
      (byN[r.target] ??= []).push(r);
    } else {
      ((summary.latency[r.fixture] ??= {})[r.target] ??= []).push(r);
    }
    for (const s of r.statusList ?? []) {
      ((summary.statusList[r.target] ??= {})[s.variant] ??= []).push(s);
    }
  }
  for (const byN of Object.values(summary.start)) {
    for (const byTarget of Object.values(byN)) {
      for (const [t, list] of Object.entries(byTarget)) byTarget[t] = medians(list, METRICS_START);
    }
  }
  for (const byTarget of Object.values(summary.latency)) {
    for (const [t, list] of Object.entries(byTarget)) byTarget[t] = medians(list, METRICS_LATENCY);
  }
  for (const byVariant of Object.values(summary.statusList)) {
    for (const [v, list] of Object.entries(byVariant)) {
      byVariant[v] = {
        runs: list.length,
        p50Ms: round(median(list.map((s) => s.p50Ms)), 3),
        p99Ms: round(median(list.map((s) => s.p99Ms)), 3),
        callsPerRun: list[0].calls,
        requests: list.reduce((n, s) => n + (s.requests ?? s.calls), 0),
        serverLaunches: list.reduce((n, s) => n + s.serverLaunches, 0),
        childProcessesChanged: list.filter((s) => s.childProcessesAfter > s.childProcessesBefore)
          .length,
      };
    }
  }
  return summary;
}

const ratio = (a, b) => (a == null || b == null || b === 0 ? null : round(a / b, 2));

/** Every target of issues #9 and #18 with its measured value and verdict, per fixture where it applies. */
export function evaluateTargets(summary, fixtures) {
  const out = [];
  const add = (target, scope, value, limit, ok, note) =>
    out.push({
      target,
      scope,
      value,
      limit,
      status: value === null ? 'not measured' : ok ? 'met' : 'missed',
      ...(value === null && /Codex/.test(target) ? { note: 'needs --vs-codex' } : {}),
      ...(note ? { note } : {}),
    });
  for (const fixture of fixtures) {
    const lat = summary.latency[fixture] ?? {};
    const s50 = summary.start[fixture]?.[50] ?? {};
    const scope = fixture === 'raw' ? 'dependency-free' : 'SDK';
    let r = ratio(lat.lib?.seqP50Ms, lat.sdk?.seqP50Ms);
    add('library call p50 ≤ 1.15× raw SDK', scope, r, 1.15, r !== null && r <= 1.15);
    r = ratio(lat.app?.seqP50Ms, lat.codex?.seqP50Ms);
    add('app-server call p50 ≤ 0.6× Codex', scope, r, 0.6, r !== null && r <= 0.6);
    r = ratio(lat.app?.seqP50Ms, lat.sdk?.seqP50Ms);
    add('app-server call p50 ≤ 1.6× raw SDK', scope, r, 1.6, r !== null && r <= 1.6);
    r = ratio(lat.gw?.seqP50Ms, lat.sdk?.seqP50Ms);
    add(
      'gateway (mcprt serve) call p50 ≤ 2.5× raw SDK direct',
      scope,
      r,
      2.5,
      r !== null && r <= 2.5,
    );
    r = ratio(lat.gw26?.seqP50Ms, lat.sdk?.seqP50Ms);
    add(
      'gateway call p50 ≤ 2.5× raw SDK direct (2026-07-28 client)',
      scope,
      r,
      2.5,
      r !== null && r <= 2.5,
    );
    r = ratio(lat.app?.throughput, lat.codex?.throughput);
    add('app-server throughput (16 in flight) ≥ 1.5× Codex', scope, r, 1.5, r !== null && r >= 1.5);
    if (fixture === 'raw') {
      r = ratio(s50.app?.startMs, s50.sdk?.startMs);
      add(
        'start → all ready, 50 servers ≤ 1.2× raw SDK (app-server)',
        scope,
        r,
        1.2,
        r !== null && r <= 1.2,
      );
      r = ratio(s50.lib?.startMs, s50.sdk?.startMs);
      add(
        'start → all ready, 50 servers ≤ 1.2× raw SDK (library)',
        scope,
        r,
        1.2,
        r !== null && r <= 1.2,
      );
    }
    r = ratio(s50.app?.rssMb, s50.codex?.rssMb);
    add('app-server peak RSS at 50 servers ≤ 0.7× Codex', scope, r, 0.7, r !== null && r <= 0.7);
  }
  const app = summary.statusList.app ?? {};
  for (const variant of Object.keys(app).sort()) {
    const v = app[variant];
    add(
      `mcpServerStatus/list, thread, 50 servers, ${variant}: p50 ≤ 5 ms, no spawn`,
      'dependency-free',
      v.p50Ms,
      5,
      v.p50Ms <= 5 && v.serverLaunches === 0 && v.childProcessesChanged === 0,
      `${v.serverLaunches} server launches, ${v.childProcessesChanged} runs with new child processes`,
    );
  }
  const inv = summary.inventory;
  if (inv && !inv.error) {
    add(
      `inventory of ${inv.tools} tools built in ≤ 50 ms (cold, fresh process)`,
      '200 × 50 tools',
      round(inv.buildColdMs, 1),
      50,
      inv.buildColdMs <= 50,
    );
    const growth = round(inv.lookupNs[10000] / inv.lookupNs[1000], 2);
    add(
      'inventory lookup O(1): time at 10,000 tools ≤ 2× at 1,000',
      '200 × 50 tools',
      growth,
      2,
      growth <= 2,
    );
  } else {
    add('inventory build and lookup', '200 × 50 tools', null, null, false, inv?.error);
  }
  return out;
}

const fmt = (v, digits = 2) =>
  v === null || v === undefined ? '—' : Number(v).toFixed(v >= 1000 ? 0 : digits);

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) =>
          c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]),
        )
        .join('  '),
    )
    .join('\n');
}

/** The printed report: one table per fixture, status list, inventory, targets. */
export function renderReport(summary, targets, { fixtures, withCodex }) {
  const cols = ['sdk', 'lib', 'app', ...(withCodex ? ['codex'] : [])];
  const ratios = [
    ['lib/SDK', 'lib', 'sdk'],
    ['app/SDK', 'app', 'sdk'],
    ...(withCodex
      ? [
          ['app/Codex', 'app', 'codex'],
          ['Codex/SDK', 'codex', 'sdk'],
        ]
      : []),
  ];
  const out = [];
  for (const fixture of fixtures) {
    const header = ['metric', ...cols.map((c) => TARGET_LABELS[c]), ...ratios.map((r) => r[0])];
    const rows = [header];
    const row = (label, values, digits) =>
      rows.push([
        label,
        ...cols.map((c) => fmt(values[c], digits)),
        ...ratios.map(([, a, b]) => fmt(ratio(values[a], values[b]))),
      ]);
    const pick = (obj, key) => Object.fromEntries(cols.map((c) => [c, obj?.[c]?.[key]]));
    for (const n of [1, 10, 50]) {
      row(`start → all ready, N=${n} (ms)`, pick(summary.start[fixture]?.[n], 'startMs'), 0);
    }
    row(
      'peak RSS of the client process, N=50 (MB)',
      pick(summary.start[fixture]?.[50], 'rssMb'),
      1,
    );
    const lat = summary.latency[fixture];
    row('tool call p50, sequential (ms)', pick(lat, 'seqP50Ms'), 3);
    row('tool call p99, sequential (ms)', pick(lat, 'seqP99Ms'), 3);
    row('throughput, 16 in flight (calls/s)', pick(lat, 'throughput'), 0);
    row('call p50 under 16 in flight (ms)', pick(lat, 'loadP50Ms'), 2);
    out.push(
      `${fixture === 'raw' ? 'Dependency-free servers (bench/fixtures/raw-echo.mjs)' : 'SDK servers (bench/fixtures/sdk-echo.mjs)'}\n${table(rows)}`,
    );
  }
  for (const fixture of fixtures) {
    const lat = summary.latency[fixture] ?? {};
    if (!lat.libnh && !lat.appnh) continue;
    const hcols = ['sdk', 'lib', 'libnh', 'app', 'appnh', ...(withCodex ? ['codex'] : [])];
    const rows = [
      [
        `${fixture === 'raw' ? 'dependency-free' : 'SDK'} servers, mcprt with history off`,
        ...hcols.map((c) => TARGET_LABELS[c]),
        'lib-nh/SDK',
        'app-nh/SDK',
        ...(withCodex ? ['app-nh/Codex'] : []),
      ],
    ];
    const hrow = (label, key, digits) => {
      const v = (c) => lat[c]?.[key];
      rows.push([
        label,
        ...hcols.map((c) => fmt(v(c), digits)),
        fmt(ratio(v('libnh'), v('sdk'))),
        fmt(ratio(v('appnh'), v('sdk'))),
        ...(withCodex ? [fmt(ratio(v('appnh'), v('codex')))] : []),
      ]);
    };
    hrow('tool call p50, sequential (ms)', 'seqP50Ms', 3);
    hrow('tool call p99, sequential (ms)', 'seqP99Ms', 3);
    hrow('throughput, 16 in flight (calls/s)', 'throughput', 0);
    out.push(table(rows));
  }
  for (const fixture of fixtures) {
    const lat = summary.latency[fixture] ?? {};
    if (!lat.gw && !lat.gw26) continue;
    const gcols = ['sdk', 'gw', 'gw26'];
    const rows = [
      [
        `${fixture === 'raw' ? 'dependency-free' : 'SDK'} servers, through mcprt serve (stdio)`,
        ...gcols.map((c) => TARGET_LABELS[c]),
        'serve/SDK',
        'serve-2026/SDK',
      ],
    ];
    const grow = (label, key, digits) => {
      const v = (c) => lat[c]?.[key];
      rows.push([
        label,
        ...gcols.map((c) => fmt(v(c), digits)),
        fmt(ratio(v('gw'), v('sdk'))),
        fmt(ratio(v('gw26'), v('sdk'))),
      ]);
    };
    grow('tool call p50, sequential (ms)', 'seqP50Ms', 3);
    grow('tool call p99, sequential (ms)', 'seqP99Ms', 3);
    grow('throughput, 16 in flight (calls/s)', 'throughput', 0);
    out.push(table(rows));
  }
  const sl = [
    [
      'mcpServerStatus/list, thread over 50 servers',
      'p50 (ms)',
      'p99 (ms)',
      'requests',
      'server launches',
      'runs',
    ],
  ];
  for (const [target, byVariant] of Object.entries(summary.statusList)) {
    for (const [variant, v] of Object.entries(byVariant)) {
      sl.push([
        `${TARGET_LABELS[target]}, detail ${variant}`,
        fmt(v.p50Ms, 3),
        fmt(v.p99Ms, 3),
        v.requests,
        v.serverLaunches,
        v.runs,
      ]);
    }
  }
  out.push(table(sl));
  const inv = summary.inventory;
  if (inv && !inv.error) {
    out.push(
      table([
        [`inventory, ${inv.tools} tools (200 servers × 50)`, 'value'],
        ['first build in a fresh process (ms)', fmt(inv.buildColdMs, 1)],
        ['build, median of repeats (ms)', fmt(inv.buildMedianMs, 1)],
        ['  of which assignModelToolNames (ms)', fmt(inv.namingMedianMs, 1)],
        [
          'lookup at 1,000 / 10,000 / 100,000 tools (ns)',
          `${fmt(inv.lookupNs[1000], 0)} / ${fmt(inv.lookupNs[10000], 0)} / ${fmt(inv.lookupNs[100000], 0)}`,
        ],
      ]),
    );
  }
  const tr = [['target', 'servers', 'measured', 'limit', 'verdict']];
  for (const t of targets) {
    const verdict = t.status === 'not measured' && t.note ? `${t.status} (${t.note})` : t.status;
    tr.push([t.target, t.scope, fmt(t.value), fmt(t.limit), verdict]);
  }
  out.push(`Targets (issues #9 and #18)\n${table(tr)}`);
  if (summary.failures.length > 0) {
    out.push(
      `Failed measurements (left out of the medians):\n${summary.failures.map((f) => `  ${f.kind} ${f.fixture ?? ''} N=${f.n ?? ''} ${f.target}: ${f.error}`).join('\n')}`,
    );
  }
  return out.join('\n\n');
}
