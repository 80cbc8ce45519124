// The naming after ADR 0029 (a direct assignment, and the general one it falls back to) against
// the assignment it replaced, kept here verbatim as the reference: every step applied to every
// distinct tool, all of them sorted. Generated inventories of 10,000 tools with every kind of
// collision (sanitizing, namespaces, flattening, exact duplicates, too-long names, hashed forms
// squatted by other tools, null vs '' environment ids) must get the same names, and the names of
// two fixed inputs are pinned by digest (computed with the reference before the change).
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';
import { ToolInventory, type InventorySource } from './inventory.js';
import { assignModelToolNames, type ToolNameCandidate } from './naming.js';

// ---- The reference: naming.ts before ADR 0029 (behaviour unchanged since ADR 0001's layout).
const h12 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex').slice(0, 12);
const sanitize = (s: string): string => (s.length === 0 ? '_' : s.replace(/[^A-Za-z0-9_]/gu, '_'));
const nsIdentity = (s: RegistrationScope): string => `${s.environmentId ?? ''}\u0000${s.name}`;
interface RefEntry {
  key: string;
  scope: RegistrationScope;
  scopeKey: string;
  identity: string;
  namespace: string;
  name: string;
  assigned: string;
}
function refDisambiguate(
  entries: readonly RefEntry[],
  keyOf: (e: RefEntry) => string,
  rawOf: (e: RefEntry) => string,
  apply: (e: RefEntry) => void,
): void {
  const groups = new Map<string, Set<string>>();
  for (const e of entries) {
    const raws = groups.get(keyOf(e)) ?? new Set<string>();
    raws.add(rawOf(e));
    groups.set(keyOf(e), raws);
  }
  for (const e of entries) if ((groups.get(keyOf(e))?.size ?? 0) > 1) apply(e);
}
function refHashed(namespace: string, name: string, hash: string): string {
  const room = 64 - namespace.length - 2 - 13;
  if (room >= 0) return `${namespace}__${name.slice(0, room)}_${hash}`;
  return `${namespace.slice(0, 64 - 2 - 12)}__${hash}`;
}
function referenceNames(candidates: readonly ToolNameCandidate[]): string[] {
  const byKey = new Map<string, RefEntry>();
  const perCandidate = candidates.map((c) => {
    const { environmentId: env, name } = c.scope;
    const distinct = env === null ? `t\u0000${name}` : `e${env}\u0000${name}`;
    const key = `${distinct}\u0000${c.tool}`;
    let entry = byKey.get(key);
    if (entry === undefined) {
      entry = {
        key,
        scope: c.scope,
        scopeKey: distinct,
        identity: `${nsIdentity(c.scope)}\u0000${c.tool}`,
        namespace: sanitize(env === null ? `mcp__${name}` : `mcp__${env}__${name}`),
        name: sanitize(c.tool),
        assigned: '',
      };
      byKey.set(key, entry);
    }
    return entry;
  });
  const entries = [...byKey.values()];
  refDisambiguate(
    entries,
    (e) => e.namespace,
    (e) => e.scopeKey,
    (e) => (e.namespace = `${e.namespace}_${h12(nsIdentity(e.scope))}`),
  );
  refDisambiguate(
    entries,
    (e) => `${e.namespace}\u0000${e.name}`,
    (e) => e.key,
    (e) => (e.name = `${e.name}_${h12(e.identity)}`),
  );
  entries.sort((a, b) => {
    if (a.identity !== b.identity) return a.identity < b.identity ? -1 : 1;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
  const used = new Set<string>();
  for (const e of entries) {
    let result = `${e.namespace}__${e.name}`;
    if (result.length > 64 || used.has(result)) {
      result = refHashed(e.namespace, e.name, h12(e.identity));
      for (let n = 1; used.has(result); n++) {
        result = refHashed(e.namespace, e.name, h12(`${e.identity}\u0000${n}`));
      }
    }
    used.add(result);
    e.assigned = result;
  }
  return perCandidate.map((e) => e.assigned);
}

// ---- Generated inputs.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALL: InventorySource['policy'] = { enabledTools: null, disabledTools: null };
const def = (name: string) => ({ name, inputSchema: { type: 'object' as const } });

/** The bench's input (bench/peers/inventory.mjs): 200 × 50 tools, a quarter in environments. */
function benchSources(): InventorySource[] {
  const sources: InventorySource[] = Array.from({ length: 200 }, (_, s) => ({
    scope: { environmentId: s % 4 === 3 ? `env${s % 3}` : null, name: `srv-${s}` },
    policy: ALL,
    tools: Array.from({ length: 50 }, (_, t) => def(t === 0 ? 'search' : `tool_${t}`)),
  }));
  // `srv-0` and `srv_0` sanitize alike (hashing); this one has tools, unlike the bench's.
  sources.push({ scope: { environmentId: null, name: 'srv_0' }, policy: ALL, tools: [def('x')] });
  return sources;
}

const SERVERS = (s: number): string[] => [
  `srv-${s}`,
  `srv_${s % 7}`,
  `srv-${s % 7}`,
  'a',
  'a__b',
  'a_',
  's',
  's__x',
  `${'server'.repeat(8)}-${s % 3}`,
  `数据${s % 2}`,
  'my-server',
  'my_server',
  `srv_${s}_x`,
];
const TOOLS = (t: number): string[] => [
  `tool_${t}`,
  `tool-${t % 5}`,
  `tool_${t % 5}`,
  'get.x',
  'get_x',
  '',
  '-',
  `${'long'.repeat(14)}${t % 4}`,
  'b__c',
  'x__y',
  `_${t % 3}`,
  'résumé',
  'search',
];

/** 10,000 tools (or `size`) over 200 sources with every kind of collision, from `seed`. */
function adversarialSources(seed: number, size = 10_000): InventorySource[] {
  const rand = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const envs = [null, null, null, 'env0', 'env-1', 'env_1', '', 'a', 'box'];
  const sources: InventorySource[] = [];
  const perServer = Math.ceil(size / 200);
  for (let s = 0; s < 200; s++) {
    const scope = { environmentId: pick(envs), name: rand() < 0.7 ? `srv-${s}` : pick(SERVERS(s)) };
    const tools = Array.from({ length: perServer }, (_, t) =>
      def(rand() < 0.8 ? `tool_${t}` : pick(TOOLS(t))),
    );
    // Now and then a tool listed twice, and a second source (another scope object) for a scope.
    if (rand() < 0.1) tools.push(def(tools[0]!.name));
    sources.push({ scope, policy: ALL, tools });
    if (rand() < 0.05) sources.push({ scope: { ...scope }, policy: ALL, tools: [def('dup')] });
  }
  return sources;
}

/** Fisher–Yates with `random(seed)`. */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const rand = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function candidatesOf(sources: readonly InventorySource[]): ToolNameCandidate[] {
  return sources.flatMap((s) => s.tools.map((t) => ({ scope: s.scope, tool: t.name })));
}

const digest = (names: readonly string[]): string =>
  createHash('sha256').update(names.join('\n')).digest('hex');

describe('model-visible names against the assignment they replaced', () => {
  it('pins the names of the bench inventory (10,001 tools, no collision left unhashed)', () => {
    const candidates = candidatesOf(benchSources());
    const names = assignModelToolNames(candidates);
    expect(names).toEqual(referenceNames(candidates));
    expect(names[0]).toMatch(/^mcp__srv_0_[0-9a-f]{12}__search$/);
    expect(names[names.length - 1]).toMatch(/^mcp__srv_0_[0-9a-f]{12}__x$/);
    expect(names[50]).toBe('mcp__srv_1__search');
    expect(digest(names)).toBe('f548a1c7cff40afe73f08252baf9da19a66d6652595b5cb84ce31a613c5ddae6');
  });

  it('pins the names of a generated inventory with every kind of collision', () => {
    const candidates = candidatesOf(adversarialSources(1));
    expect(candidates.length).toBeGreaterThanOrEqual(10_000);
    const names = assignModelToolNames(candidates);
    expect(names).toEqual(referenceNames(candidates));
    expect(digest(names)).toBe('bb8faefce8723ed5711b4db4eccf1f142ce103e72575edd227a54c2a14e6cdc2');
  });

  it('gives the same names as the reference for generated inventories and any input order', () => {
    for (let seed = 2; seed <= 13; seed++) {
      const candidates = candidatesOf(adversarialSources(seed, 1_000));
      expect(assignModelToolNames(candidates)).toEqual(referenceNames(candidates));
      const shuffled = shuffle(candidates, seed);
      expect(assignModelToolNames(shuffled)).toEqual(referenceNames(shuffled));
    }
  });

  it('gives the same names when only a few names are too long (the direct assignment)', () => {
    const candidates = candidatesOf(benchSources().slice(1, 200));
    for (const i of [7, 4_000, 9_000]) {
      const c = candidates[i]!;
      candidates[i] = { scope: c.scope, tool: `${c.tool}_${'x'.repeat(60)}` };
    }
    candidates.push({ scope: candidates[7]!.scope, tool: `${candidates[7]!.tool}_` });
    const names = assignModelToolNames(candidates);
    expect(names).toEqual(referenceNames(candidates));
    expect(names[7]).toMatch(/^mcp__srv_1__tool_7_xx+_[0-9a-f]{12}$/);
    expect(names[7]).toHaveLength(64);
  });

  it('gives the same names with duplicates and near-collisions that do not collide', () => {
    const candidates = candidatesOf(benchSources().slice(1, 200));
    const long = { scope: candidates[60]!.scope, tool: `${'long'.repeat(20)}-tool` };
    candidates.push(long, { ...long }, { ...candidates[61]! }, { ...candidates[61]! });
    const tw = (name: string, tool: string) => ({ scope: { environmentId: null, name }, tool });
    // Sanitized names (`get-x`) and namespaces continuing others (`mcp__a` / `mcp__a__b`,
    // `mcp__box` / `mcp__box__srv`), with no two distinct tools on one flattened name.
    candidates.push(tw('s', 'get-x'), tw('s', 'get-x'), tw('a', 'b__c2'), tw('a__b', 'c'));
    candidates.push(tw('box', 'srv__t'), {
      scope: { environmentId: 'box', name: 'srv' },
      tool: 'u',
    });
    const names = assignModelToolNames(candidates);
    expect(names).toEqual(referenceNames(candidates));
    expect(names.slice(-10)).toEqual([
      names[names.length - 9],
      names[names.length - 10],
      names[61],
      names[61],
      'mcp__s__get_x',
      'mcp__s__get_x',
      'mcp__a__b__c2',
      'mcp__a__b__c',
      'mcp__box__srv__t',
      'mcp__box__srv__u',
    ]);
    expect(names[names.length - 10]).toHaveLength(64);
  });

  it('gives a too-long name’s hashed form to whichever tool sorts first', () => {
    // `L`'s hashed form is `mcp__s__<x × 42>__<h>`, which is also the flattened name of tool `<h>`
    // on server `s__<x × 42>`. `L` sorts first (`\0s\0…` < `\0s__…`), so `L` takes it and the
    // other tool is hashed in turn; with the squatter first, `L` takes the next attempt.
    const long: ToolNameCandidate = { scope: { environmentId: null, name: 's' }, tool: '' };
    const tool = `${'x'.repeat(42)}__${'y'.repeat(30)}`;
    const L = { ...long, tool };
    const h = h12(`\u0000s\u0000${tool}`);
    const squatter = { scope: { environmentId: null, name: `s__${'x'.repeat(42)}` }, tool: h };
    const names = assignModelToolNames([squatter, L, { ...long, tool: 'ok' }]);
    expect(names).toEqual(referenceNames([squatter, L, { ...long, tool: 'ok' }]));
    expect(names[1]).toBe(`mcp__s__${'x'.repeat(42)}__${h}`);
    expect(names[0]).not.toBe(names[1]);

    const early = { scope: { environmentId: null, name: 's' }, tool: `${'x'.repeat(42)}__${h}` };
    const both = [L, early];
    expect(assignModelToolNames(both)).toEqual(referenceNames(both));
    expect(assignModelToolNames(both)[0]).toBe(
      `mcp__s__${'x'.repeat(42)}__${h12(`\u0000s\u0000${tool}\u00001`)}`,
    );
  });

  it('keeps exact duplicates, across sources and scope objects, on one name', () => {
    const a = { environmentId: 'box', name: 'srv' };
    const sources: InventorySource[] = [
      { scope: a, policy: ALL, tools: [def('t'), def('u'), def('t')] },
      { scope: { ...a }, policy: ALL, tools: [def('u')] },
    ];
    const names = assignModelToolNames(candidatesOf(sources));
    expect(names).toEqual([
      'mcp__box__srv__t',
      'mcp__box__srv__u',
      'mcp__box__srv__t',
      'mcp__box__srv__u',
    ]);
  });
});

describe('ToolInventory over a generated inventory', () => {
  it('holds every enabled tool in source order with the reference names, and finds each', () => {
    const sources = adversarialSources(21);
    // Some sources filter their tools.
    sources[3] = {
      ...sources[3]!,
      policy: { enabledTools: ['tool_1', 'tool_2'], disabledTools: null },
    };
    sources[5] = { ...sources[5]!, policy: { enabledTools: null, disabledTools: ['tool_0'] } };
    const inventory = new ToolInventory(sources);
    const enabled = sources.flatMap((s) =>
      s.tools
        .filter(
          (t) =>
            (s.policy.enabledTools?.includes(t.name) ?? true) &&
            !(s.policy.disabledTools?.includes(t.name) ?? false),
        )
        .map((tool) => ({ scope: s.scope, tool })),
    );
    const names = referenceNames(enabled.map((p) => ({ scope: p.scope, tool: p.tool.name })));
    expect(inventory.tools).toHaveLength(enabled.length);
    inventory.tools.forEach((t, i) => {
      expect(t.scope).toBe(enabled[i]!.scope);
      expect(t.tool).toBe(enabled[i]!.tool);
      expect(t.modelName).toBe(names[i]);
    });
    // The last tool holding a name is the one found (exact duplicates share a name).
    const last = new Map(inventory.tools.map((t) => [t.modelName, t]));
    for (const [name, tool] of last) expect(inventory.findByModelName(name)).toBe(tool);
    expect(inventory.findByModelName('mcp__nowhere__tool')).toBeUndefined();
    // Per scope: that scope's tools, in order, whichever source (or scope object) listed them.
    const perScope = new Map<string, unknown[]>();
    for (const t of inventory.tools) {
      perScope.set(scopeKey(t.scope), [...(perScope.get(scopeKey(t.scope)) ?? []), t]);
    }
    for (const s of sources) {
      const listed = inventory.forScope({ ...s.scope });
      expect(listed).toHaveLength(perScope.get(scopeKey(s.scope))?.length ?? 0);
      listed.forEach((t, i) => expect(t).toBe(perScope.get(scopeKey(s.scope))![i]));
    }
    expect(inventory.forScope({ environmentId: null, name: 'nowhere' })).toEqual([]);
  });
});
