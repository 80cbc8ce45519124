#!/usr/bin/env node
// Tool search rows of `npm run bench` (issue "Tool shaping"); alone: `npm run bench:search [--
// --runs N] [--quick] [--out FILE]`. Over synthetic tools made from the real servers' tool lists
// (bench/lib/realServers.mjs, replicated across environments and server names: 1,000 and 10,000
// tools, and 10,000 with no two definitions alike) it measures the search index's build — the first in a fresh process (cold: what a
// gateway's first `search_tools` pays) and the median of rebuilds — and search latency p50/p99
// over the eval's queries, each size in a fresh process per run. Then the tokens a model gets up
// front for 3 environments × the 5 real servers: search `off` (every definition, as views list
// them) vs `always` (the three meta-tools). Targets: search p50 ≤ 1 ms and build ≤ 100 ms at
// 10,000 tools. Alone, writes bench/results/search.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

import { BENCH_DIR, SCRATCH_PARENT } from './lib/paths.mjs';
import { listRealServerTools } from './lib/realServers.mjs';
import { table } from './lib/report.mjs';
import { runPeer } from './lib/runPeer.mjs';
import { corpus, formatJson, loadViews, machine, packageVersion } from './lib/searchCorpus.mjs';
import { median, round } from './lib/stats.mjs';

export const SEARCH_TARGETS = { searchP50Ms: 1, buildMs: 100, atTools: 10_000 };
/** Corpus sizes; `distinct`: every definition unlike the others (the worst case). */
const CASES = [
  { key: '1000', size: 1_000 },
  { key: '10000', size: 10_000 },
  { key: '10000-distinct', size: 10_000, distinct: true },
];
const QUERIES = join(BENCH_DIR, 'eval', 'search-queries.json');

/** Tokens up front for the eval's environments × every real server, search off vs always. */
async function tokensUpFront(serverTools) {
  const views = await loadViews();
  const { environments } = JSON.parse(readFileSync(QUERIES, 'utf8'));
  const count = (tools) => tools.reduce((n, t) => n + views.toolDefinitionTokens(t.tool), 0);
  const listed = corpus(environments, serverTools).tools;
  const raw = corpus(environments, serverTools, { labelled: false }).tools;
  const perServer = Object.entries(serverTools).map(([server, tools]) => ({
    server,
    tools: tools.length,
    tokens: Math.round(
      count(listed.filter((t) => t.server === server)) / Object.keys(environments).length,
    ),
  }));
  const off = count(listed);
  const always = views.metaToolTokens();
  return {
    environments: Object.keys(environments),
    tools: listed.length,
    perServerPerEnvironment: perServer,
    offTokens: off,
    offTokensUnlabelled: count(raw),
    alwaysTokens: always,
    saved: round(1 - always / off, 3),
  };
}

export async function measureToolSearch({ runs = 3, quick = false, log = () => {} } = {}) {
  const scratch = mkdtempSync(join(SCRATCH_PARENT, 'mcprt-bench-search-'));
  try {
    const serverTools = await listRealServerTools();
    const toolsFile = join(scratch, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify(serverTools));
    const records = [];
    for (let run = 1; run <= runs; run++) {
      // The cases' order rotates from run to run.
      for (const c of CASES.map((_, i) => CASES[(i + run) % CASES.length])) {
        const r = await runPeer('toolSearch', {
          toolsFile,
          queriesFile: QUERIES,
          size: c.size,
          distinct: c.distinct ?? false,
          ...(quick ? { builds: 2, rounds: 3 } : {}),
        });
        records.push({ run, case: c.key, ...r });
        log(
          `  tool search ${c.key} run ${run}: ${r.error ? `FAILED: ${r.error}` : `build ${r.buildMs} ms (first ${r.coldBuildMs} ms), search p50 ${r.searchP50Ms} ms, p99 ${r.searchP99Ms} ms`}`,
        );
      }
    }
    const ok = records.filter((r) => !r.error);
    const of = (key, metric, digits) =>
      round(median(ok.filter((r) => r.case === key).map((r) => r[metric])), digits);
    const sizes = Object.fromEntries(
      CASES.map(({ key, size, distinct = false }) => [
        key,
        {
          tools: size,
          distinct,
          runs: ok.filter((r) => r.case === key).length,
          coldBuildMs: of(key, 'coldBuildMs', 1),
          buildMs: of(key, 'buildMs', 1),
          searchP50Ms: of(key, 'searchP50Ms', 3),
          searchP99Ms: of(key, 'searchP99Ms', 3),
          heapMb: of(key, 'heapMb', 1),
        },
      ]),
    );
    const at = sizes[String(SEARCH_TARGETS.atTools)];
    const targets = {
      searchP50: at.searchP50Ms !== null && at.searchP50Ms <= SEARCH_TARGETS.searchP50Ms,
      build: at.buildMs !== null && at.buildMs <= SEARCH_TARGETS.buildMs,
    };
    const summary = {
      sizes,
      targets,
      tokens: await tokensUpFront(serverTools),
      servers: Object.fromEntries(Object.entries(serverTools).map(([k, v]) => [k, v.length])),
      failures: records.filter((r) => r.error).map((r) => `${r.case}: ${r.error}`),
    };
    return { summary, records };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function renderToolSearch({ summary }) {
  const { sizes, targets, tokens } = summary;
  const verdict = (met) => (met ? 'met' : 'NOT met');
  const tokenRows = [
    ['tokens up front (o200k_base)', 'tools', 'tokens'],
    ...tokens.perServerPerEnvironment.map((s) => [
      `  ${s.server} (one environment)`,
      s.tools,
      s.tokens,
    ]),
    [
      `search off: every definition, ${tokens.environments.length} environments`,
      tokens.tools,
      tokens.offTokens,
    ],
    ["  (the servers' own definitions, unlabelled)", tokens.tools, tokens.offTokensUnlabelled],
    ['search always: the three meta-tools', 3, tokens.alwaysTokens],
  ];
  return [
    'Tool search (synthetic tools from the real servers; medians over runs):',
    table([
      [
        'tools',
        'build (ms)',
        'first build (ms)',
        'search p50 (ms)',
        'search p99 (ms)',
        'heap used (MB)',
      ],
      ...Object.values(sizes).map((s) => [
        `${s.tools.toLocaleString('en')}${s.distinct ? ', all distinct' : ''}`,
        s.buildMs,
        s.coldBuildMs,
        s.searchP50Ms,
        s.searchP99Ms,
        s.heapMb,
      ]),
    ]),
    `  at ${SEARCH_TARGETS.atTools.toLocaleString('en')} tools: search p50 ≤ ${SEARCH_TARGETS.searchP50Ms} ms ${verdict(targets.searchP50)}, build ≤ ${SEARCH_TARGETS.buildMs} ms ${verdict(targets.build)}${summary.failures.length ? `; ${summary.failures.length} failed runs` : ''}`,
    '',
    table(tokenRows),
    `  always lists ${Math.round(tokens.saved * 100)}% fewer tokens than off (${tokens.offTokens} → ${tokens.alwaysTokens})`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const runs = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : quick ? 1 : 3;
  const out = argv.includes('--out')
    ? argv[argv.indexOf('--out') + 1]
    : join(BENCH_DIR, 'results', 'search.json');
  if (argv.includes('--help') || argv.includes('-h')) {
    const header = readFileSync(new URL(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 11);
    console.log(header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  }
  const result = await measureToolSearch({
    runs,
    quick,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(`\n${renderToolSearch(result)}`);
  const output = {
    generatedAt: new Date().toISOString(),
    machine: machine(),
    options: { runs, quick },
    versions: {
      minisearch: packageVersion('node_modules', 'minisearch'),
      gptTokenizer: packageVersion('node_modules', 'gpt-tokenizer'),
    },
    targets: SEARCH_TARGETS,
    ...result,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, await formatJson(output, out));
  console.log(`\nresults: ${relative(process.cwd(), out)}`);
  if (result.summary.failures.length > 0) process.exitCode = 1;
}
