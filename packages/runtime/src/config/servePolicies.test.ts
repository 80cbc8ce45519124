/**
 * Tests for `[[serve.policies]]`: every key read, absent conditions as null, the warnings that
 * change nothing (an unreachable catch-all, an empty list), and the fail-closed rule — any error
 * or unknown key replaces the whole list by one entry that matches no caller, said in a warning.
 */

import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ConfigInvalidError } from '../errors.js';
import { loadConfig } from './load.js';
import type { LoadConfigOptions } from './load.js';
import { INVALID_POLICIES_NAME } from './servePolicies.js';
import type { ServePolicyConfig } from './serveTypes.js';
import type { McprtConfig } from './types.js';

const F = resolve('/cfg/config.toml');

function load(
  lines: readonly string[],
  opts: Omit<LoadConfigOptions, 'file' | 'text'> = {},
): McprtConfig {
  return loadConfig({ ...opts, file: F, text: lines.join('\n') + '\n' });
}

/** Every diagnostic of `lines`, as strict mode throws them (errors and warnings). */
function strictMessages(lines: readonly string[]): string[] {
  try {
    load(lines, { strict: true });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigInvalidError);
    return (err as ConfigInvalidError).diagnostics.map((d) => d.message);
  }
  throw new Error('strict load did not throw');
}

const at = (line: number, column: number, keyPath: string) => ({
  file: F,
  line,
  column,
  keyPath,
});

const VIEWS = ['[views.readonly]', '[views.ops]'];

/** The list that replaces policies with a problem: one entry that matches no caller. */
const failedClosed = (line: number): ServePolicyConfig[] => [
  {
    name: INVALID_POLICIES_NAME,
    subjects: [],
    clients: [],
    groups: [],
    scopes: [],
    view: null,
    environments: [],
    location: at(line, 1, 'serve.policies'),
  },
];

const lockout = (line: number, first: string) =>
  `${F}:${line}:1: serve.policies: [[serve.policies]] is not applied: every caller of \`mcprt serve\` is refused until it is fixed (first problem: ${first})`;

describe('[[serve.policies]]', () => {
  it('none: an empty list', () => {
    expect(load(VIEWS).serve.policies).toEqual([]);
    expect(load([...VIEWS, '[serve]', 'view = "ops"']).serve.policies).toEqual([]);
    expect(load(['[serve]', 'policies = []'], { strict: true }).serve.policies).toEqual([]);
  });

  it('reads every key, absent conditions as null; a last entry without conditions is a catch-all', () => {
    const config = load(
      [
        ...VIEWS,
        '[[serve.policies]]',
        'name = "contractors"',
        'subjects = ["ext-*"]',
        'clients = ["web", "cli-?"]',
        'groups = ["contractors"]',
        'scopes = ["mcp:read"]',
        'view = "readonly"',
        'environments = ["staging", "-"]',
        '[[serve.policies]]',
        'name = "everyone_else"',
        'view = "ops"',
      ],
      { strict: true },
    );
    expect(config.warnings).toEqual([]);
    expect(config.serve.policies).toEqual([
      {
        name: 'contractors',
        subjects: ['ext-*'],
        clients: ['web', 'cli-?'],
        groups: ['contractors'],
        scopes: ['mcp:read'],
        view: 'readonly',
        environments: ['staging', '-'],
        location: at(3, 1, 'serve.policies[0]'),
      },
      {
        name: 'everyone_else',
        subjects: null,
        clients: null,
        groups: null,
        scopes: null,
        view: 'ops',
        environments: null,
        // The locator stops at array indices: every entry points at the first header.
        location: at(3, 1, 'serve.policies[1]'),
      },
    ] satisfies ServePolicyConfig[]);
  });

  it('is read in codex mode too, and from an inline array of tables', () => {
    const config = load(
      ['[serve]', 'policies = [{ name = "a", groups = ["g"] }, { name = "b" }]'],
      {
        mode: 'codex',
        strict: true,
      },
    );
    expect(config.serve.policies.map((p) => [p.name, p.groups])).toEqual([
      ['a', ['g']],
      ['b', null],
    ]);
  });

  it('warns of a catch-all that is not last (the entries after it are never reached)', () => {
    const lines = [
      '[[serve.policies]]',
      'name = "all"',
      '[[serve.policies]]',
      'name = "admins"',
      'groups = ["admins"]',
    ];
    const config = load(lines);
    expect(config.serve.policies.map((p) => p.name)).toEqual(['all', 'admins']);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:1:1: serve.policies[0]: policy \`all\` has no subjects, clients, groups or scopes: it matches every caller, so the entries after it are never reached`,
    ]);
  });

  it('warns of an empty condition list (it matches no caller) and keeps the entry', () => {
    const lines = ['[[serve.policies]]', 'name = "nobody"', 'subjects = []'];
    const config = load(lines);
    expect(config.serve.policies).toMatchObject([{ name: 'nobody', subjects: [] }]);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:1:1: serve.policies[0].subjects: an empty list matches no caller: policy \`nobody\` never applies`,
    ]);
  });
});

describe('[[serve.policies]] fails closed', () => {
  // Each case: a restricted first entry, broken in one way, then a catch-all granting the
  // gateway's whole view. Dropping or loosening the broken entry would hand its callers the
  // catch-all; instead no entry matches anyone.
  const restricted = (...broken: string[]) => [
    ...VIEWS,
    '[[serve.policies]]',
    ...broken,
    '[[serve.policies]]',
    'name = "staff"',
  ];
  const cases: { what: string; broken: string[]; problem: string; severity: string }[] = [
    {
      what: 'a misspelt condition key',
      broken: ['name = "contractors"', 'subject = ["ext-*"]', 'view = "readonly"'],
      problem: 'serve.policies[0].subject: unknown key `subject`',
      severity: 'warning',
    },
    {
      what: 'a misspelt view key',
      broken: ['name = "contractors"', 'groups = ["contractors"]', 'veiw = "readonly"'],
      problem: 'serve.policies[0].veiw: unknown key `veiw`',
      severity: 'warning',
    },
    {
      what: 'a condition of the wrong type',
      broken: ['name = "contractors"', 'groups = "contractors"', 'view = "readonly"'],
      problem: 'serve.policies[0].groups: expected an array of strings, found string',
      severity: 'error',
    },
    {
      what: 'a pattern of the wrong type',
      broken: ['name = "contractors"', 'subjects = ["ext-*", 7]', 'view = "readonly"'],
      problem: 'serve.policies[0].subjects[1]: expected a string, found integer',
      severity: 'error',
    },
    {
      what: 'environments of the wrong type',
      broken: ['name = "contractors"', 'groups = ["c"]', 'environments = "staging"'],
      problem: 'serve.policies[0].environments: expected an array of strings, found string',
      severity: 'error',
    },
    {
      what: 'a malformed environment id',
      broken: ['name = "contractors"', 'groups = ["c"]', 'environments = ["stag ing"]'],
      problem:
        "serve.policies[0].environments[0]: environment id `stag ing` must contain only ASCII letters, numbers, '-' or '_' (`-`: the thread-wide servers)",
      severity: 'error',
    },
    {
      what: 'a view of the wrong type',
      broken: ['name = "contractors"', 'groups = ["c"]', 'view = 1'],
      problem: 'serve.policies[0].view: expected a string, found integer',
      severity: 'error',
    },
    {
      what: 'a view that is not defined',
      broken: ['name = "contractors"', 'groups = ["c"]', 'view = "read-only"'],
      problem:
        'serve.policies[0].view: view `read-only` is not defined in [views] (defined: `readonly`, `ops`)',
      severity: 'error',
    },
    {
      what: 'a missing name',
      broken: ['groups = ["c"]', 'view = "readonly"'],
      problem: 'serve.policies[0]: missing field `name`',
      severity: 'error',
    },
    {
      what: 'a name of the wrong type',
      broken: ['name = 1', 'groups = ["c"]'],
      problem: 'serve.policies[0].name: expected a string, found integer',
      severity: 'error',
    },
    {
      what: 'a malformed name',
      broken: ['name = "contract ors"', 'groups = ["c"]'],
      problem:
        'serve.policies[0].name: invalid policy name `contract ors`: must match pattern ^[A-Za-z0-9_-]+$',
      severity: 'error',
    },
  ];

  it.each(cases)('$what', ({ broken, problem, severity }) => {
    const lines = restricted(...broken);
    const config = load(lines);
    expect(config.serve.policies).toEqual(failedClosed(3));
    const lockoutWarning = lockout(3, problem);
    // The lockout is said even without --strict (error diagnostics are shown only with it).
    expect(config.warnings.map((w) => w.message)).toEqual(
      severity === 'warning'
        ? [expect.stringContaining(problem), lockoutWarning]
        : [lockoutWarning],
    );
    expect(strictMessages(lines)).toContainEqual(expect.stringContaining(problem));
  });

  it('a duplicate name fails the list, even in a later entry', () => {
    const lines = [
      '[[serve.policies]]',
      'name = "a"',
      'groups = ["g"]',
      '[[serve.policies]]',
      'name = "a"',
    ];
    const config = load(lines);
    expect(config.serve.policies).toEqual(failedClosed(1));
    expect(strictMessages(lines)).toEqual([
      `${F}:1:1: serve.policies[1].name: policy name \`a\` is already used by serve.policies[0]`,
      lockout(1, 'serve.policies[1].name: policy name `a` is already used by serve.policies[0]'),
    ]);
  });

  it('a view that is invalid fails the list with no second diagnostic of its own', () => {
    const lines = [
      '[views.readonly]',
      'tool_search = "x"',
      '[[serve.policies]]',
      'name = "c"',
      'view = "readonly"',
    ];
    const config = load(lines);
    expect(config.invalidViews.map((v) => v.name)).toEqual(['readonly']);
    expect(config.serve.policies).toEqual(failedClosed(3));
    expect(strictMessages(lines)).toEqual([
      `${F}:2:1: views.readonly.tool_search: unknown variant \`x\`, expected one of \`auto\`, \`always\`, \`off\``,
      lockout(3, 'serve.policies[0].view: view `readonly` is invalid'),
    ]);
  });

  it('policies that are no array of tables fail closed', () => {
    expect(load(['[serve.policies]', 'name = "a"']).serve.policies).toEqual(failedClosed(1));
    expect(strictMessages(['[serve.policies]', 'name = "a"'])[0]).toBe(
      `${F}:1:1: serve.policies: expected an array of tables ([[serve.policies]]), found table`,
    );
    expect(load(['[serve]', 'policies = "admins"']).serve.policies).toEqual(failedClosed(2));
    const items = ['[serve]', 'policies = [{ name = "a", groups = ["g"] }, "b"]'];
    expect(load(items).serve.policies).toEqual(failedClosed(2));
    expect(strictMessages(items)[0]).toBe(
      `${F}:2:1: serve.policies[1]: expected a table, found string`,
    );
  });

  it('unknown keys elsewhere in [serve] do not touch the policies', () => {
    const config = load([
      ...VIEWS,
      '[serve]',
      'listen = "stdio"',
      '[[serve.policies]]',
      'name = "a"',
    ]);
    expect(config.serve.policies.map((p) => p.name)).toEqual(['a']);
  });
});
