import { describe, expect, it } from 'vitest';

import type { RegistrationScope } from '../scope.js';
import type { NamedTool } from './viewNames.js';
import { alwaysName, assignViewNames, hashedName, MAX_NAME_LENGTH } from './viewNames.js';

const scope = (environmentId: string | null, name: string): RegistrationScope => ({
  environmentId,
  name,
});
const tool = (env: string | null, server: string, name: string, rename: string | null = null) =>
  ({
    scope: scope(env, server),
    tool: name,
    modelName: env === null ? `mcp__${server}__${name}` : `mcp__${env}__${server}__${name}`,
    rename,
  }) satisfies NamedTool;
const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe('always names', () => {
  it('are <env>__<server>__<tool>, thread-wide <server>__<tool>', () => {
    expect(alwaysName(scope('buildbox', 'shell'), 'run_tests')).toBe('buildbox__shell__run_tests');
    expect(alwaysName(scope(null, 'server-everything'), 'echo')).toBe('server-everything__echo');
  });

  it('hash a part that is not clean, or a name over 64 characters, into a form with ___', () => {
    for (const [s, t] of [
      [scope('a', 'srv'), 'has.dot'],
      [scope('a', 'srv'), 'has__double'],
      [scope('a', 'srv'), '_leading'],
      [scope('a', 'my__srv'), 'x'],
      [scope('a', 'srv'), 'x'.repeat(70)],
    ] as const) {
      const name = alwaysName(s, t);
      expect(name).toBe(hashedName(s, t));
      expect(name).toMatch(VALID);
      expect(name).toContain('___');
    }
  });

  it('never meet: `a`+`b__c` and `a__b`+`c` and thread-wide `a`+`b__c` are three names', () => {
    const names = [
      alwaysName(scope('a', 'b'), 'c'),
      alwaysName(scope(null, 'a'), 'b__c'),
      alwaysName(scope('a', 'b_'), '_c'),
    ];
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toBe('a__b__c');
  });

  it('stay the same when an environment, a server or a tool is added', () => {
    const before = [
      tool('devbox', 'github', 'create_issue'),
      tool(null, 'docs', 'search'),
      tool('devbox', 'shell', 'run_tests'),
    ];
    const first = assignViewNames(before, 'always');
    const after = [
      tool('buildbox', 'shell', 'run_tests'),
      ...before,
      tool('ci', 'github', 'create_issue'),
      tool(null, 'devbox', 'github__create_issue'),
      tool('devbox', 'github', 'x'.repeat(80)),
    ];
    const second = assignViewNames(after, 'always');
    expect(second.slice(1, 4)).toEqual(first);
    expect(new Set(second).size).toBe(second.length);
    for (const n of second) expect(n).toMatch(VALID);
  });
});

describe('conditional names', () => {
  it('are the shortest unique: tool, then server__tool, then the always name', () => {
    const names = assignViewNames(
      [
        tool('a', 'shared', 'echo'),
        tool('b', 'shared', 'echo'),
        tool('a', 'github', 'search'),
        tool('a', 'docs', 'search'),
        tool(null, 'memory', 'read_graph'),
      ],
      'conditional',
    );
    expect(names).toEqual([
      'a__shared__echo',
      'b__shared__echo',
      'github__search',
      'docs__search',
      'read_graph',
    ]);
  });

  it('move a name that meets a thread-wide server’s full name up a level', () => {
    // Thread-wide github's full name is `github__search`: a/github's second level meets it.
    const names = assignViewNames(
      [tool(null, 'github', 'search'), tool('a', 'github', 'search'), tool('a', 'docs', 'search')],
      'conditional',
    );
    expect(names).toEqual(['github__search', 'a__github__search', 'docs__search']);
  });

  it('are deterministic: the same set in another order gets the same names', () => {
    const tools = [
      tool('a', 'shared', 'echo'),
      tool('b', 'shared', 'echo'),
      tool('a', 'docs', 'search'),
      tool(null, 'docs', 'search'),
    ];
    const forward = assignViewNames(tools, 'conditional');
    const backward = assignViewNames([...tools].reverse(), 'conditional').reverse();
    expect(backward).toEqual(forward);
  });
});

describe('renames and reserved names', () => {
  it('take a rename as written and move a generated name that meets it', () => {
    const names = assignViewNames(
      [tool('buildbox', 'shell', 'run_tests', 'run_tests'), tool('devbox', 'x', 'run_tests')],
      'conditional',
    );
    expect(names[0]).toBe('run_tests');
    expect(names[1]).toBe('x__run_tests');
  });

  it('keep generated names off the reserved meta-tool names in every mode', () => {
    const tools = [tool(null, 'search', 'tools'), tool('a', 'srv', 'search_tools')];
    for (const mode of [null, 'always', 'conditional'] as const) {
      const names = assignViewNames(tools, mode, new Set(['search_tools', 'search__tools']));
      expect(names).not.toContain('search_tools');
      expect(names).not.toContain('search__tools');
      expect(new Set(names).size).toBe(2);
    }
  });

  it('default names are the runtime names without mcp__', () => {
    expect(assignViewNames([tool('a', 'shared', 'echo')], null)).toEqual(['a__shared__echo']);
  });

  it('never exceed 64 characters', () => {
    const long = 'y'.repeat(MAX_NAME_LENGTH);
    // (Default names are the runtime's, which it keeps within 64 characters.)
    for (const mode of ['always', 'conditional'] as const) {
      const names = assignViewNames([tool('e'.repeat(60), 's', long)], mode);
      expect(names[0]!.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    }
  });
});
