// One tool-search measurement in a fresh process (bench/toolSearch.mjs): the index over `size`
// synthetic tools (bench/lib/searchCorpus.mjs; `distinct`: no two definitions alike) — its first build (cold: what the first
// `search_tools` of a gateway pays), the median of `builds` more — then every eval query
// `rounds` times, each search timed alone (p50/p99 over all of them, after one warm-up round).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { loadViews, syntheticCorpus } from '../lib/searchCorpus.mjs';
import { median, percentile, round } from '../lib/stats.mjs';
import { runPeer } from './emit.mjs';

runPeer(async ({ toolsFile, queriesFile, size, distinct = false, builds = 5, rounds = 20 }) => {
  const { ToolSearchIndex } = await loadViews();
  const serverTools = JSON.parse(readFileSync(toolsFile, 'utf8'));
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')).queries.map((q) => q.query);
  const tools = syntheticCorpus(serverTools, size, { distinct });

  let t = performance.now();
  let index = ToolSearchIndex.build(tools);
  const coldBuildMs = performance.now() - t;
  const buildMs = [];
  for (let i = 0; i < builds; i++) {
    t = performance.now();
    index = ToolSearchIndex.build(tools);
    buildMs.push(performance.now() - t);
  }

  for (const q of queries) index.search(q);
  const searchMs = [];
  let hits = 0;
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      t = performance.now();
      hits += index.search(q).length;
      searchMs.push(performance.now() - t);
    }
  }
  return {
    size: index.size,
    coldBuildMs: round(coldBuildMs, 1),
    buildMs: round(median(buildMs), 1),
    searches: searchMs.length,
    hitsPerSearch: round(hits / searchMs.length, 2),
    searchP50Ms: round(median(searchMs), 3),
    searchP99Ms: round(percentile(searchMs, 99), 3),
    heapMb: round(process.memoryUsage().heapUsed / 2 ** 20, 1),
  };
});
