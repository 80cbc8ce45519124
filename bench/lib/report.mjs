// Turns the run's raw measurements into medians, ratios and the printed tables (the target
// verdicts: targets.mjs). Ratios are always between targets of the same run (interleaved), never across runs.
import { median, round } from './stats.mjs';
import { ratio } from './targets.mjs';

export { evaluateTargets } from './targets.mjs';

export const TARGET_LABELS = {
  sdk: 'raw SDK',
  lib: 'mcprt lib',
  app: 'mcprt app',
  codex: 'Codex',
  libnh: 'lib, no history',
  appnh: 'app, no history',
  gw: 'mcprt serve',
  gw26: 'serve, 2026',
  sdk26: 'raw SDK, 2026',
};

const METRICS_START = ['startMs', 'rssMb', 'treeRssMb', 'initializedMs', 'threadStartMs'];
const METRICS_LATENCY = [
  'seqP50Ms',
  'seqP99Ms',
  'throughput',
  'loadP50Ms',
  'loadP99Ms',
  'first10P50Ms',
  'firstCallMs',
];

function medians(records, keys) {
  const out = { runs: records.length };
  for (const key of keys) out[key] = round(median(records.map((r) => r[key])), 3);
  return out;
}

/**
 * Medians per scenario and target (failed runs are counted, not averaged in): start-up per fixture
 * and N; tool calls per fixture and warm-up count (`latency[fixture][warmup][target]`), and the
 * first calls after ready over every latency run of a target (`firstCalls[fixture][target]`: the
 * process is fresh in each, whatever its warm-up count).
 */
export function aggregate(records, inventory) {
  const ok = records.filter((r) => !r.error);
  const summary = {
    start: {},
    latency: {},
    firstCalls: {},
    statusList: {},
    inventory,
    failures: [],
  };
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
      const byWarmup = (summary.latency[r.fixture] ??= {});
      ((byWarmup[r.warmup] ??= {})[r.target] ??= []).push(r);
      ((summary.firstCalls[r.fixture] ??= {})[r.target] ??= []).push(r);
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
  for (const byWarmup of Object.values(summary.latency)) {
    for (const byTarget of Object.values(byWarmup)) {
      for (const [t, list] of Object.entries(byTarget)) {
        byTarget[t] = medians(list, METRICS_LATENCY);
      }
    }
  }
  for (const byTarget of Object.values(summary.firstCalls)) {
    for (const [t, list] of Object.entries(byTarget)) {
      byTarget[t] = medians(list, ['first10P50Ms', 'firstCallMs']);
    }
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

const fmt = (v, digits = 2) =>
  v === null || v === undefined ? '—' : Number(v).toFixed(v >= 1000 ? 0 : digits);

/** Rows of cells as aligned text: the first column left-aligned, the rest right-aligned. */
export function table(rows) {
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

const FIXTURE_NAMES = {
  raw: 'Dependency-free servers (bench/fixtures/raw-echo.mjs)',
  sdk: 'SDK servers (bench/fixtures/sdk-echo.mjs)',
};
const CALL_ROWS = [
  ['tool call p50, sequential (ms)', 'seqP50Ms', 3],
  ['tool call p99, sequential (ms)', 'seqP99Ms', 3],
  ['throughput, 16 in flight (calls/s)', 'throughput', 0],
  ['call p50 under 16 in flight (ms)', 'loadP50Ms', 2],
];

/**
 * One table of `cols` with `ratios` ([label, a, b]): the first-calls rows, then every call metric
 * once per warm-up count (adjacent rows, so both warm-ups read side by side), plus `extraRows`
 * ([label, values-by-target, digits]) first.
 */
function callTable(
  title,
  summary,
  fixture,
  warmups,
  cols,
  ratios,
  { extraRows = [], rows = CALL_ROWS } = {},
) {
  const out = [
    [title, 'warm-up', ...cols.map((c) => TARGET_LABELS[c]), ...ratios.map((r) => r[0])],
  ];
  const row = (label, warmup, values, digits) =>
    out.push([
      label,
      warmup,
      ...cols.map((c) => fmt(values[c], digits)),
      ...ratios.map(([, a, b]) => fmt(ratio(values[a], values[b]))),
    ]);
  const pick = (obj, key) => Object.fromEntries(cols.map((c) => [c, obj?.[c]?.[key]]));
  for (const [label, values, digits] of extraRows) row(label, '', values, digits);
  const first = summary.firstCalls[fixture];
  row('first 10 calls after ready, p50 (ms)', 'fresh', pick(first, 'first10P50Ms'), 3);
  row('first call after ready (ms)', 'fresh', pick(first, 'firstCallMs'), 3);
  for (const [label, key, digits] of rows) {
    for (const w of warmups) row(label, w, pick(summary.latency[fixture]?.[w], key), digits);
  }
  return table(out);
}

/** The printed report: per fixture start-up and calls, history off, gateway, status list, inventory, targets. */
export function renderReport(summary, targets, { fixtures, warmups, withCodex }) {
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
  const has = (fixture, ...ts) =>
    warmups.some((w) => ts.some((t) => summary.latency[fixture]?.[w]?.[t]));
  for (const fixture of fixtures) {
    const start = (n, key) =>
      Object.fromEntries(cols.map((c) => [c, summary.start[fixture]?.[n]?.[c]?.[key]]));
    const extraRows = [
      ...[1, 10, 50].map((n) => [`start → all ready, N=${n} (ms)`, start(n, 'startMs'), 0]),
      ['peak RSS of the client process, N=50 (MB)', start(50, 'rssMb'), 1],
    ];
    out.push(
      `${FIXTURE_NAMES[fixture]}\n${callTable('metric', summary, fixture, warmups, cols, ratios, { extraRows })}`,
    );
  }
  for (const fixture of fixtures) {
    if (!has(fixture, 'libnh', 'appnh')) continue;
    const hcols = ['sdk', 'lib', 'libnh', 'app', 'appnh', ...(withCodex ? ['codex'] : [])];
    const hratios = [
      ['lib-nh/SDK', 'libnh', 'sdk'],
      ['app-nh/SDK', 'appnh', 'sdk'],
      ...(withCodex ? [['app-nh/Codex', 'appnh', 'codex']] : []),
    ];
    const title = `${fixture === 'raw' ? 'dependency-free' : 'SDK'} servers, mcprt with history off`;
    out.push(
      callTable(title, summary, fixture, warmups, hcols, hratios, { rows: CALL_ROWS.slice(0, 3) }),
    );
  }
  for (const fixture of fixtures) {
    if (!has(fixture, 'gw', 'gw26')) continue;
    // A 2026 client is read against the same client direct where the server speaks 2026.
    const direct26 = has(fixture, 'sdk26');
    const gratios = [
      ['serve/SDK', 'gw', 'sdk'],
      direct26 ? ['serve-2026/SDK-2026', 'gw26', 'sdk26'] : ['serve-2026/SDK', 'gw26', 'sdk'],
    ];
    const cols = ['sdk', ...(direct26 ? ['sdk26'] : []), 'gw', 'gw26'];
    const title = `${fixture === 'raw' ? 'dependency-free' : 'SDK'} servers, through mcprt serve (stdio)`;
    out.push(
      callTable(title, summary, fixture, warmups, cols, gratios, {
        rows: CALL_ROWS.slice(0, 3),
      }),
    );
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
        [
          '  a bare Map.get over the same names (ns)',
          `${fmt(inv.mapLookupNs?.[1000], 0)} / ${fmt(inv.mapLookupNs?.[10000], 0)} / ${fmt(inv.mapLookupNs?.[100000], 0)}`,
        ],
      ]),
    );
  }
  const tr = [['target', 'servers', 'warm-up', 'measured', 'limit', 'verdict']];
  for (const t of targets) {
    const verdict = t.status === 'not measured' && t.note ? `${t.status} (${t.note})` : t.status;
    tr.push([t.target, t.scope, t.warmup ?? '', fmt(t.value), fmt(t.limit), verdict]);
  }
  out.push(`Targets (issues #9, #16 and #18)\n${table(tr)}`);
  if (summary.failures.length > 0) {
    out.push(
      `Failed measurements (left out of the medians):\n${summary.failures.map((f) => `  ${f.kind} ${f.fixture ?? ''} N=${f.n ?? ''} ${f.target}: ${f.error}`).join('\n')}`,
    );
  }
  return out.join('\n\n');
}
