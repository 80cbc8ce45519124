#!/usr/bin/env node
// `npm run eval:search [-- --raw] [--verbose] [--out FILE]`: retrieval quality of the tool search
// index (packages/runtime/src/views/toolSearch.ts) on task-phrased queries
// (bench/eval/search-queries.json) over the real servers' tools (bench/lib/realServers.mjs) in
// three environments. Each query has its expected tool(s) as <env>/<server>/<tool> (`*`: any
// environment); reports recall@1, recall@5 and MRR (over the top 50) for every query and for
// each set (dev: tuned on; heldout: never tuned on; fresh: written after the index was frozen),
// with and without an environment in the query. Definitions are labelled as views label
// them (`--raw`: the servers' own). Writes bench/results/search-eval.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { BENCH_DIR } from './lib/paths.mjs';
import { listRealServerTools } from './lib/realServers.mjs';
import { table } from './lib/report.mjs';
import { corpus, formatJson, loadViews, machine, packageVersion } from './lib/searchCorpus.mjs';
import { round } from './lib/stats.mjs';

const QUERIES = join(BENCH_DIR, 'eval', 'search-queries.json');
const RANK_DEPTH = 50;
const TARGET_RECALL_AT_5 = 0.9;

function parseArgs(argv) {
  const opts = { raw: false, verbose: false, out: join(BENCH_DIR, 'results', 'search-eval.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--raw') opts.raw = true;
    else if (a === '--verbose') opts.verbose = true;
    else if (a === '--out') opts.out = argv[++i];
    else if (a === '--help' || a === '-h') {
      const header = readFileSync(new URL(import.meta.url), 'utf8')
        .split('\n')
        .slice(1, 9);
      console.log(header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  return opts;
}

const matches = (path, expected) => {
  const [env, ...rest] = expected.split('/');
  const [pathEnv, ...pathRest] = path.split('/');
  return (env === '*' || env === pathEnv) && rest.join('/') === pathRest.join('/');
};

/** 1-based rank of the first acceptable hit, or null if none is in the top RANK_DEPTH. */
function rankOf(hits, paths, expected) {
  const i = hits.findIndex((h) => expected.some((e) => matches(paths.get(h.name), e)));
  return i < 0 ? null : i + 1;
}

function figures(rows) {
  const n = rows.length;
  const at = (k) => rows.filter((r) => r.rank !== null && r.rank <= k).length / n;
  const mrr = rows.reduce((s, r) => s + (r.rank === null ? 0 : 1 / r.rank), 0) / n;
  return { queries: n, recallAt1: round(at(1), 3), recallAt5: round(at(5), 3), mrr: round(mrr, 3) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const data = JSON.parse(readFileSync(QUERIES, 'utf8'));
  const views = await loadViews();
  const serverTools = await listRealServerTools();
  const missing = data.servers.filter((s) => !(s in serverTools));
  if (missing.length > 0) throw new Error(`servers not listed: ${missing.join(', ')}`);
  const { tools, paths } = corpus(data.environments, serverTools, { labelled: !opts.raw });
  const known = new Set(paths.values());
  const index = views.ToolSearchIndex.build(tools);

  const rows = data.queries.map((q) => {
    for (const e of q.expected) {
      const concrete = Object.keys(data.environments).map((env) => e.replace(/^\*\//, `${env}/`));
      if (!concrete.some((p) => known.has(p))) throw new Error(`no such tool: ${e} (${q.query})`);
    }
    const hits = index.search(q.query, RANK_DEPTH);
    return {
      set: q.set,
      query: q.query,
      expected: q.expected,
      environmentNamed: !q.expected.every((e) => e.startsWith('*/')),
      rank: rankOf(hits, paths, q.expected),
      top: hits.slice(0, 3).map((h) => paths.get(h.name)),
    };
  });

  const groups = {
    all: rows,
    dev: rows.filter((r) => r.set === 'dev'),
    heldout: rows.filter((r) => r.set === 'heldout'),
    fresh: rows.filter((r) => r.set === 'fresh'),
    fresh2: rows.filter((r) => r.set === 'fresh2'),
    environmentNamed: rows.filter((r) => r.environmentNamed),
    noEnvironment: rows.filter((r) => !r.environmentNamed),
  };
  const results = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, figures(v)]));
  const met = results.all.recallAt5 >= TARGET_RECALL_AT_5;

  console.log(
    `\ntool search eval — ${rows.length} queries over ${tools.length} tools ` +
      `(${Object.keys(data.environments).length} environments × ${data.servers.length} servers), ` +
      `${opts.raw ? "the servers' own definitions" : 'definitions labelled as views label them'}\n`,
  );
  console.log(
    table([
      ['queries', 'n', 'recall@1', 'recall@5', 'MRR'],
      ...Object.entries(results).map(([k, f]) => [k, f.queries, f.recallAt1, f.recallAt5, f.mrr]),
    ]),
  );
  console.log(
    `\nrecall@5 ≥ ${TARGET_RECALL_AT_5}: ${met ? 'met' : 'NOT met'} (${results.all.recallAt5})`,
  );
  const misses = rows.filter((r) => r.rank === null || r.rank > (opts.verbose ? 1 : 5));
  if (misses.length > 0) {
    console.log(`\n${opts.verbose ? 'not first' : 'not in the top 5'}:`);
    for (const r of misses) {
      console.log(
        `  [${r.set}] "${r.query}" → rank ${r.rank ?? `>${RANK_DEPTH}`} (want ${r.expected.join(' | ')}; top: ${r.top.join(', ')})`,
      );
    }
  }

  const output = {
    generatedAt: new Date().toISOString(),
    machine: machine(),
    versions: {
      minisearch: packageVersion('node_modules', 'minisearch'),
      serverEverything: packageVersion(
        'node_modules',
        '@modelcontextprotocol',
        'server-everything',
      ),
      serverFilesystem: packageVersion(
        'node_modules',
        '@modelcontextprotocol',
        'server-filesystem',
      ),
      serverMemory: packageVersion('node_modules', '@modelcontextprotocol', 'server-memory'),
      serverSequentialThinking: packageVersion(
        'node_modules',
        '@modelcontextprotocol',
        'server-sequential-thinking',
      ),
    },
    definitions: opts.raw ? 'raw' : 'labelled',
    tools: tools.length,
    environments: data.environments,
    servers: Object.fromEntries(Object.entries(serverTools).map(([k, v]) => [k, v.length])),
    target: { recallAt5: TARGET_RECALL_AT_5, met },
    results,
    queries: rows,
  };
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, await formatJson(output, opts.out));
  console.log(`\nresults: ${relative(process.cwd(), opts.out)}`);
}

main().catch((error) => {
  console.error(`eval:search failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(2);
});
