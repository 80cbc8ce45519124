// Inventory scale, in a fresh process: the runtime's ToolInventory (which runs
// assignModelToolNames) over 200 servers × 50 tools = 10,000 tools — a quarter of them in an
// environment and a few colliding names, so every naming step runs — built cold once, then
// repeatedly; then `findByModelName` per lookup at 1,000 / 10,000 / 100,000 tools, each against a
// bare `Map.get` over the same names in the same order. O(1) means the inventory's lookup stays
// within a constant factor of the bare Map at every size: the absolute time of both grows with
// the inventory because the names and the hash table stop fitting in the CPU caches (1,000 names
// fit in L1/L2, 100,000 do not), which is the memory hierarchy, not the algorithm. Sizes are
// measured interleaved, 7 rounds, medians.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

import { RUNTIME_DIST } from '../lib/paths.mjs';
import { median } from '../lib/stats.mjs';
import { runPeer } from './emit.mjs';

const { ToolInventory } = await import(
  pathToFileURL(join(RUNTIME_DIST, 'inventory', 'inventory.js')).href
);
const { assignModelToolNames } = await import(
  pathToFileURL(join(RUNTIME_DIST, 'inventory', 'naming.js')).href
);

const POLICY = { enabledTools: null, disabledTools: null };

function sources(servers, toolsPerServer) {
  return Array.from({ length: servers }, (_, s) => ({
    // Every fourth server lives in an environment; `srv-7` and `srv_7` sanitize alike (hashing).
    scope: { environmentId: s % 4 === 3 ? `env${s % 3}` : null, name: `srv-${s}` },
    policy: POLICY,
    tools: Array.from({ length: toolsPerServer }, (_, t) => ({
      name: t === 0 ? 'search' : `tool_${t}`,
      description: `tool ${t} of server ${s}`,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    })),
  }));
}

/** The lookup order: a fixed pseudo-random walk, so it is not cache-friendly by construction. */
function lookupOrder(inventory, lookups) {
  const names = inventory.tools.map((t) => t.modelName);
  return Array.from({ length: lookups }, (_, i) => names[(i * 7919) % names.length]);
}

/** Nanoseconds per `find(name)` over `order`. */
function lookupNs(find, order) {
  let found = 0;
  const t = performance.now();
  for (const name of order) if (find(name)) found += 1;
  const ns = ((performance.now() - t) * 1e6) / order.length;
  if (found !== order.length) throw new Error(`lookup missed ${order.length - found} names`);
  return ns;
}

runPeer(async ({ servers = 200, toolsPerServer = 50, repeats = 20 }) => {
  const input = sources(servers, toolsPerServer);
  // The hashing path: `srv_0` collides with `srv-0` after sanitizing (a registration without
  // tools takes no part in naming, so it has one).
  input.push({
    scope: { environmentId: null, name: 'srv_0' },
    policy: POLICY,
    tools: [{ name: 'search', description: 'collides', inputSchema: { type: 'object' } }],
  });
  const total = input.reduce((n, s) => n + s.tools.length, 0);
  let t = performance.now();
  const first = new ToolInventory(input);
  const coldMs = performance.now() - t;
  if (first.tools.length !== total || new Set(first.tools.map((x) => x.modelName)).size !== total) {
    throw new Error('inventory names are not unique');
  }
  const warm = [];
  for (let i = 0; i < repeats; i++) {
    t = performance.now();
    new ToolInventory(input);
    warm.push(performance.now() - t);
  }
  const namingOnly = [];
  const candidates = first.tools.map((x) => ({ scope: x.scope, tool: x.tool.name }));
  for (let i = 0; i < repeats; i++) {
    t = performance.now();
    assignModelToolNames(candidates);
    namingOnly.push(performance.now() - t);
  }
  const sizes = [1_000, 10_000, 100_000];
  const setups = sizes.map((size) => {
    const inv = new ToolInventory(sources(size / toolsPerServer, toolsPerServer));
    const map = new Map(inv.tools.map((tool) => [tool.modelName, tool]));
    return {
      size,
      order: lookupOrder(inv, 1_000_000),
      inventory: (name) => inv.findByModelName(name),
      map: (name) => map.get(name),
    };
  });
  const samples = Object.fromEntries(sizes.map((size) => [size, { inventory: [], map: [] }]));
  for (const s of setups) {
    lookupNs(s.inventory, s.order.slice(0, 200_000)); // warm-up (both functions, every size)
    lookupNs(s.map, s.order.slice(0, 200_000));
  }
  for (let round = 0; round < 7; round++) {
    for (let i = 0; i < setups.length; i++) {
      const s = setups[(i + round) % setups.length];
      samples[s.size].inventory.push(lookupNs(s.inventory, s.order));
      samples[s.size].map.push(lookupNs(s.map, s.order));
    }
  }
  const lookup = {};
  const mapNs = {};
  for (const size of sizes) {
    lookup[size] = median(samples[size].inventory);
    mapNs[size] = median(samples[size].map);
  }
  return {
    tools: total,
    buildColdMs: coldMs,
    buildMedianMs: median(warm),
    namingMedianMs: median(namingOnly),
    lookupNs: lookup,
    mapLookupNs: mapNs,
    lookupGrowth: lookup[100_000] / lookup[1_000],
  };
});
