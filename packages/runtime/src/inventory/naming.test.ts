import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { RegistrationScope } from '../scope.js';
import {
  MAX_TOOL_NAME_LENGTH,
  assignModelToolNames,
  sanitizeNamePart,
  type ToolNameCandidate,
} from './naming.js';

const VALID = /^[A-Za-z0-9_]{1,64}$/;

function h12(identity: string): string {
  return createHash('sha1').update(identity, 'utf8').digest('hex').slice(0, 12);
}

function tw(name: string, tool: string): ToolNameCandidate {
  return { scope: { environmentId: null, name }, tool };
}

function env(environmentId: string, name: string, tool: string): ToolNameCandidate {
  return { scope: { environmentId, name }, tool };
}

function nsId(scope: RegistrationScope): string {
  return `${scope.environmentId ?? ''}\u0000${scope.name}`;
}

function toolId(c: ToolNameCandidate): string {
  return `${nsId(c.scope)}\u0000${c.tool}`;
}

/** One name, asserting the single-candidate call returns exactly one. */
function only(c: ToolNameCandidate): string {
  const names = assignModelToolNames([c]);
  expect(names).toHaveLength(1);
  return names[0] as string;
}

function expectValidAndUnique(names: readonly string[]): void {
  for (const n of names) expect(n).toMatch(VALID);
  expect(new Set(names).size).toBe(names.length);
}

/** Deterministic Fisher–Yates shuffle (mulberry32), so failures are reproducible. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const rand = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('sanitizeNamePart', () => {
  it('keeps [A-Za-z0-9_] and replaces everything else with _', () => {
    expect(sanitizeNamePart('Read_File2')).toBe('Read_File2');
    expect(sanitizeNamePart('dev-box')).toBe('dev_box');
    expect(sanitizeNamePart('a.b c/d:e')).toBe('a_b_c_d_e');
  });

  it('maps empty to _', () => {
    expect(sanitizeNamePart('')).toBe('_');
  });

  it('replaces each non-ASCII code point (including astral ones) with one _', () => {
    expect(sanitizeNamePart('résumé')).toBe('r_sum_');
    expect(sanitizeNamePart('数据')).toBe('__');
    expect(sanitizeNamePart('a😀b')).toBe('a_b');
  });
});

describe('assignModelToolNames', () => {
  it('returns an empty list for no candidates', () => {
    expect(assignModelToolNames([])).toEqual([]);
  });

  it('flattens simple thread-wide and environment names without suffixes', () => {
    expect(only(tw('files', 'read'))).toBe('mcp__files__read');
    expect(only(env('dev-box', 'shared', 'echo'))).toBe('mcp__dev_box__shared__echo');
    expect(assignModelToolNames([tw('files', 'read'), tw('files', 'write')])).toEqual([
      'mcp__files__read',
      'mcp__files__write',
    ]);
  });

  it('hashes every namespace in a sanitization collision group, and only then', () => {
    const dash = tw('my-server', 'tool');
    const under = tw('my_server', 'tool');
    const names = assignModelToolNames([dash, under]);
    expect(names).toEqual([
      `mcp__my_server_${h12('\u0000my-server')}__tool`,
      `mcp__my_server_${h12('\u0000my_server')}__tool`,
    ]);
    expectValidAndUnique(names);

    expect(only(dash)).toBe('mcp__my_server__tool');
    expect(only(under)).toBe('mcp__my_server__tool');
    // An unrelated server does not get hashed just because others did.
    expect(assignModelToolNames([dash, under, tw('other', 'tool')])[2]).toBe('mcp__other__tool');
  });

  it('keeps the same server name in two environments and thread-wide apart', () => {
    const names = assignModelToolNames([
      tw('shared', 'echo'),
      env('dev-box', 'shared', 'echo'),
      env('prod', 'shared', 'echo'),
    ]);
    expect(names).toEqual([
      'mcp__shared__echo',
      'mcp__dev_box__shared__echo',
      'mcp__prod__shared__echo',
    ]);
    expectValidAndUnique(names);
  });

  it('hashes namespaces that collide across environments or across the env/server split', () => {
    const a = env('dev-box', 'shared', 'echo');
    const b = env('dev_box', 'shared', 'echo');
    expect(assignModelToolNames([a, b])).toEqual([
      `mcp__dev_box__shared_${h12('dev-box\u0000shared')}__echo`,
      `mcp__dev_box__shared_${h12('dev_box\u0000shared')}__echo`,
    ]);

    // Thread-wide `a__b` and server `b` in environment `a` both read `mcp__a__b`.
    const threadWide = tw('a__b', 't');
    const contributed = env('a', 'b', 't');
    expect(assignModelToolNames([threadWide, contributed])).toEqual([
      `mcp__a__b_${h12('\u0000a__b')}__t`,
      `mcp__a__b_${h12('a\u0000b')}__t`,
    ]);
  });

  it('hashes every tool that collides after sanitization on one server', () => {
    const dash = tw('s', 'get-x');
    const under = tw('s', 'get_x');
    const dot = tw('s', 'get.x');
    const names = assignModelToolNames([dash, under, dot, tw('s', 'other')]);
    expect(names).toEqual([
      `mcp__s__get_x_${h12(toolId(dash))}`,
      `mcp__s__get_x_${h12(toolId(under))}`,
      `mcp__s__get_x_${h12(toolId(dot))}`,
      'mcp__s__other',
    ]);
    expectValidAndUnique(names);

    // The same tool names on different servers do not collide.
    expect(assignModelToolNames([tw('s', 'get-x'), tw('t', 'get_x')])).toEqual([
      'mcp__s__get_x',
      'mcp__t__get_x',
    ]);
  });

  it('resolves flattened collisions between different (namespace, name) pairs by raw order', () => {
    // `a` + `b__c` and `a__b` + `c` both flatten to `mcp__a__b__c`; `\0a\0…` sorts first.
    const first = tw('a', 'b__c');
    const second = tw('a__b', 'c');
    const expected = ['mcp__a__b__c', `mcp__a__b__c_${h12(toolId(second))}`];
    expect(assignModelToolNames([first, second])).toEqual(expected);
    expect(assignModelToolNames([second, first])).toEqual([expected[1], expected[0]]);
  });

  it('rehashes with an attempt counter when the hashed name is already taken', () => {
    const y1 = tw('s', 'x__y'); // takes mcp__s__x__y
    const y2 = tw('s__x', 'y'); // wants mcp__s__x__y, then mcp__s__x__y_<h>
    const h = h12(toolId(y2));
    const squatter = tw('s', `x__y_${h}`); // sorts before y2 and takes mcp__s__x__y_<h>
    const names = assignModelToolNames([y2, squatter, y1]);
    expect(names).toEqual([
      `mcp__s__x__y_${h12(`${toolId(y2)}\u00001`)}`,
      `mcp__s__x__y_${h}`,
      'mcp__s__x__y',
    ]);
    expectValidAndUnique(names);
  });

  describe('64-character limit', () => {
    it('keeps a name that is exactly 64 characters', () => {
      const tool = 'r'.repeat(MAX_TOOL_NAME_LENGTH - 'mcp__files__'.length);
      const name = only(tw('files', tool));
      expect(name).toBe(`mcp__files__${tool}`);
      expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    });

    it('truncates the tool name and appends the hash when the name is too long', () => {
      const server = 'a'.repeat(40);
      const base = 'b'.repeat(40);
      const c1 = tw(server, `${base}_one`);
      const c2 = tw(server, `${base}_two`);
      const names = assignModelToolNames([c1, c2]);
      // namespace is 45 chars; 45 + 2 + 13 leaves 4 chars of the tool name.
      expect(names).toEqual([
        `mcp__${server}__bbbb_${h12(toolId(c1))}`,
        `mcp__${server}__bbbb_${h12(toolId(c2))}`,
      ]);
      for (const n of names) expect(n).toHaveLength(MAX_TOOL_NAME_LENGTH);
      expectValidAndUnique(names);
    });

    it('truncates the namespace and uses only the hash when the namespace is too long', () => {
      const prefix = 'x'.repeat(100);
      const c1 = tw(`${prefix}-1`, 'tool');
      const c2 = tw(`${prefix}-2`, 'tool');
      const c3 = env('e'.repeat(80), 'srv', 'tool');
      const names = assignModelToolNames([c1, c2, c3]);
      expect(names).toEqual([
        `mcp__${'x'.repeat(45)}__${h12(toolId(c1))}`,
        `mcp__${'x'.repeat(45)}__${h12(toolId(c2))}`,
        `mcp__${'e'.repeat(45)}__${h12(toolId(c3))}`,
      ]);
      for (const n of names) expect(n).toHaveLength(MAX_TOOL_NAME_LENGTH);
      expectValidAndUnique(names);
    });

    it('uses an empty truncated tool name when the namespace leaves no room for it', () => {
      // namespace `mcp__` + 44 chars = 49; 49 + 2 + 13 = 64 leaves 0 chars of the tool name.
      const c = tw('s'.repeat(44), 'long_tool_name_that_does_not_fit');
      const name = only(c);
      expect(name).toBe(`mcp__${'s'.repeat(44)}___${h12(toolId(c))}`);
      expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    });

    it('keeps many very long, near-identical names valid and unique', () => {
      const candidates: ToolNameCandidate[] = [];
      for (let s = 0; s < 5; s++) {
        for (let t = 0; t < 20; t++) {
          candidates.push(tw(`${'server'.repeat(12)}-${s}`, `${'tool'.repeat(20)}-${t}`));
          candidates.push(env(`env-${s}`, 'srv', `${'t'.repeat(70)}${t}`));
        }
      }
      const names = assignModelToolNames(candidates);
      expect(names).toHaveLength(candidates.length);
      for (const n of names) expect(n.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
      expectValidAndUnique(names);
    });
  });

  it('is deterministic across input orders and across calls', () => {
    const candidates: ToolNameCandidate[] = [
      tw('files', 'read'),
      tw('files', 'write'),
      tw('my-server', 'tool'),
      tw('my_server', 'tool'),
      tw('s', 'get-x'),
      tw('s', 'get_x'),
      tw('a', 'b__c'),
      tw('a__b', 'c'),
      tw('shared', 'echo'),
      env('dev-box', 'shared', 'echo'),
      env('dev_box', 'shared', 'echo'),
      env('prod', 'shared', 'echo'),
      tw('x'.repeat(90), 'tool'),
      tw(`${'x'.repeat(90)}!`, 'tool'),
      tw('srv', `${'long'.repeat(20)}-a`),
      tw('srv', `${'long'.repeat(20)}-b`),
      tw('数据', 'read'),
      tw('文件', 'read'),
      tw('files', ''),
      tw('files', '-'),
    ];
    const reference = assignModelToolNames(candidates);
    expectValidAndUnique(reference);
    const expected = new Map(candidates.map((c, i) => [toolId(c), reference[i]]));

    expect(assignModelToolNames(candidates)).toEqual(reference);
    for (let seed = 1; seed <= 25; seed++) {
      const order = shuffled(candidates, seed);
      const names = assignModelToolNames(order);
      expect(names).toEqual(order.map((c) => expected.get(toolId(c))));
    }
  });

  it('gives exact duplicates the same name and keeps input order and length', () => {
    const c = tw('files', 'read');
    const names = assignModelToolNames([c, tw('files', 'write'), { ...c }, c]);
    expect(names).toEqual([
      'mcp__files__read',
      'mcp__files__write',
      'mcp__files__read',
      'mcp__files__read',
    ]);
  });

  it('sanitizes non-ASCII server and tool names', () => {
    expect(only(tw('files', 'résumé'))).toBe('mcp__files__r_sum_');
    expect(only(env('café', 'srv', 'ok'))).toBe('mcp__caf___srv__ok');
    expect(only(tw('数据', 'read'))).toBe('mcp______read');

    // Two non-ASCII servers that sanitize identically are disambiguated.
    const a = tw('数据', 'read');
    const b = tw('文件', 'read');
    const names = assignModelToolNames([a, b]);
    expect(names).toEqual([
      `mcp_____${h12('\u0000数据')}__read`,
      `mcp_____${h12('\u0000文件')}__read`,
    ]);
    expectValidAndUnique(names);
  });

  it('maps an empty tool name to _ and disambiguates it from other names sanitizing to _', () => {
    expect(only(tw('files', ''))).toBe('mcp__files___');
    const empty = tw('files', '');
    const dash = tw('files', '-');
    const names = assignModelToolNames([empty, dash]);
    expect(names).toEqual([
      `mcp__files____${h12(toolId(empty))}`,
      `mcp__files____${h12(toolId(dash))}`,
    ]);
    expectValidAndUnique(names);
  });

  it('keeps a thread-wide server apart from one in an environment with an empty id', () => {
    // The hash identities coincide (`'' + \0 + name`), but the names must still differ.
    const names = assignModelToolNames([tw('s', 't'), env('', 's', 't')]);
    expect(names).toEqual(['mcp__s__t', 'mcp____s__t']);
    expectValidAndUnique(names);
  });
});
