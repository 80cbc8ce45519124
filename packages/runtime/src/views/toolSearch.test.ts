import { describe, expect, it } from 'vitest';

import type { SearchableTool } from './toolSearch.js';
import {
  clampLimit,
  DEFAULT_SEARCH_LIMIT,
  HIT_DESCRIPTION_CHARS,
  MAX_SEARCH_LIMIT,
  ToolSearchIndex,
} from './toolSearch.js';

const ENVIRONMENTS: Record<string, string> = {
  buildbox: 'CI build machine that runs the test suite',
  devbox: 'Developer workstation with the project checkout',
  sandbox: 'Isolated container for untrusted code',
};

type Definition = SearchableTool['tool'];

/** A tool of `server` in `env` under its `always` name, as a view would give it. */
function tool(env: string | null, server: string, definition: Definition): SearchableTool {
  const name =
    env === null ? `${server}__${definition.name}` : `${env}__${server}__${definition.name}`;
  return {
    name,
    server,
    environmentId: env,
    environmentDescription: env === null ? null : (ENVIRONMENTS[env] ?? null),
    tool: { ...definition, name },
  };
}

const RUN_TESTS: Definition = {
  name: 'run_tests',
  description: 'Run the project test suite and report failures',
  inputSchema: { type: 'object', properties: { filter: { type: 'string' } } },
};
const SHELL: Definition = {
  name: 'exec',
  description: 'Execute a shell command',
  inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
};
const READ: Definition = {
  name: 'read_text_file',
  description: 'Read the complete contents of a file as text',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
};

/** The same three servers in every environment, plus a thread-wide one. */
function fleet(): SearchableTool[] {
  const tools: SearchableTool[] = [];
  for (const env of Object.keys(ENVIRONMENTS)) {
    tools.push(tool(env, 'ci', RUN_TESTS), tool(env, 'shell', SHELL), tool(env, 'fs', READ));
  }
  tools.push(
    tool(null, 'docs', {
      name: 'search_docs',
      description: 'Search the product documentation',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    }),
  );
  return tools;
}

describe('ranking', () => {
  it('puts the named environment first among same-named tools', () => {
    const index = ToolSearchIndex.build(fleet());
    for (const env of Object.keys(ENVIRONMENTS)) {
      const [first] = index.search(`run the tests on ${env}`);
      expect(first).toMatchObject({
        name: `${env}__ci__run_tests`,
        server: 'ci',
        environmentId: env,
      });
    }
  });

  it('knows an environment by its description, not only by its id', () => {
    const index = ToolSearchIndex.build(fleet());
    expect(index.search('run the tests on the CI machine')[0]?.environmentId).toBe('buildbox');
    expect(index.search('read a file on the developer workstation')[0]?.name).toBe(
      'devbox__fs__read_text_file',
    );
    expect(index.search('execute a command in the isolated container')[0]?.name).toBe(
      'sandbox__shell__exec',
    );
  });

  it('finds a tool by its server name', () => {
    const index = ToolSearchIndex.build(fleet());
    const hits = index.search('docs');
    expect(hits[0]).toMatchObject({ name: 'docs__search_docs', environmentId: null });
  });

  it('reads parameter names and descriptions, one level nested too', () => {
    const generic = (name: string, properties: Record<string, unknown>): SearchableTool =>
      tool('devbox', 'cloud', {
        name,
        description: 'Fetch a resource',
        inputSchema: { type: 'object', properties },
      });
    const index = ToolSearchIndex.build([
      generic('fetch_a', { region: { type: 'string', description: 'AWS region like eu-west-1' } }),
      generic('fetch_b', { ref: { type: 'string', description: 'git branch to check out' } }),
      generic('fetch_c', {
        items: {
          type: 'array',
          items: { type: 'object', properties: { bucket: { description: 'S3 bucket name' } } },
        },
      }),
      generic('fetch_d', { mode: { type: 'string', enum: ['shallow', 'mirror'] } }),
    ]);
    expect(index.search('fetch from a git branch')[0]?.name).toBe('devbox__cloud__fetch_b');
    expect(index.search('fetch in the eu region')[0]?.name).toBe('devbox__cloud__fetch_a');
    expect(index.search('fetch from an s3 bucket')[0]?.name).toBe('devbox__cloud__fetch_c');
    expect(index.search('fetch a mirror')[0]?.name).toBe('devbox__cloud__fetch_d');
  });

  it('splits names on _ - . / and camelCase, and folds plurals and synonyms', () => {
    const index = ToolSearchIndex.build([
      tool(null, 'fs', { name: 'listDirectoryWithSizes', description: 'List entries' }),
      tool(null, 'fs', { name: 'files.move-item/v2', description: 'Move an entry' }),
      tool(null, 'mem', { name: 'create_entities', description: 'Add to the knowledge graph' }),
    ]);
    expect(index.search('directory sizes')[0]?.name).toBe('fs__listDirectoryWithSizes');
    expect(index.search('folder size')[0]?.name).toBe('fs__listDirectoryWithSizes');
    expect(index.search('move item')[0]?.name).toBe('fs__files.move-item/v2');
    expect(index.search('rename a file')[0]?.name).toBe('fs__files.move-item/v2');
    expect(index.search('entity')[0]?.name).toBe('mem__create_entities');
  });

  it('gives the description without the view label, cut near the limit', () => {
    const long = `${'Does a great many things. '.repeat(20)}End.`;
    const index = ToolSearchIndex.build([
      {
        name: 'buildbox__ci__run_tests',
        server: 'ci',
        environmentId: 'buildbox',
        environmentDescription: null,
        tool: {
          name: 'buildbox__ci__run_tests',
          title: 'run_tests (ci@buildbox)',
          description: '[ci@buildbox] Run the test suite',
        },
      },
      tool(null, 'big', { name: 'many_things', description: long }),
    ]);
    expect(index.search('test suite')[0]?.description).toBe('Run the test suite');
    const cut = index.search('many things')[0]!.description;
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(HIT_DESCRIPTION_CHARS + 1);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
  });
});

describe('limits and blank queries', () => {
  const many = Array.from({ length: 120 }, (_, i) =>
    tool(`env${i % 4}`, `srv${i % 7}`, {
      name: `report_${i}`,
      description: `Write report number ${i} about the weather`,
    }),
  );
  const index = ToolSearchIndex.build(many);

  it('returns the default number, clamped to [1, 50]', () => {
    expect(index.size).toBe(120);
    expect(index.search('weather report')).toHaveLength(DEFAULT_SEARCH_LIMIT);
    expect(index.search('weather report', 0)).toHaveLength(1);
    expect(index.search('weather report', -3)).toHaveLength(1);
    expect(index.search('weather report', 2.7)).toHaveLength(2);
    expect(index.search('weather report', 1000)).toHaveLength(MAX_SEARCH_LIMIT);
    expect(index.search('weather report', Infinity)).toHaveLength(MAX_SEARCH_LIMIT);
    expect(index.search('weather report', Number.NaN)).toHaveLength(DEFAULT_SEARCH_LIMIT);
    expect(clampLimit(17)).toBe(17);
  });

  it('finds nothing for a blank query or one of stop words only', () => {
    expect(index.search('')).toEqual([]);
    expect(index.search('   \n\t')).toEqual([]);
    expect(index.search('the of and to')).toEqual([]);
    expect(index.search('zzzunknownzzz')).toEqual([]);
  });

  it('gives the first k of a longer list for any k (skipping never changes the order)', () => {
    const tools = fleet();
    for (let i = 0; i < 40; i++) {
      tools.push(
        tool(Object.keys(ENVIRONMENTS)[i % 3]!, `extra${i}`, {
          name: `tool_${i}`,
          description: `Read ${i % 2 ? 'test logs' : 'build output'} of run ${i}`,
        }),
      );
    }
    const big = ToolSearchIndex.build(tools);
    for (const q of ['run the tests on buildbox', 'read test logs', 'build output on sandbox']) {
      const all = big.search(q, MAX_SEARCH_LIMIT);
      for (const k of [1, 3, 8, 20]) expect(big.search(q, k)).toEqual(all.slice(0, k));
    }
  });
});

describe('determinism', () => {
  it('breaks ties by name, whatever the input order', () => {
    const tools = fleet();
    const shuffled = [...tools].reverse();
    const a = ToolSearchIndex.build(tools).search('read a file', 5);
    const b = ToolSearchIndex.build(shuffled).search('read a file', 5);
    expect(b).toEqual(a);
    // The same definition in three environments, no environment asked for: a tie, by name.
    expect(a.slice(0, 3).map((h) => h.name)).toEqual([
      'buildbox__fs__read_text_file',
      'devbox__fs__read_text_file',
      'sandbox__fs__read_text_file',
    ]);
    expect(new Set(a.slice(0, 3).map((h) => h.score)).size).toBe(1);
  });

  it('answers the same query the same way every time', () => {
    const index = ToolSearchIndex.build(fleet());
    const first = index.search('execute a shell command on devbox', 10);
    for (let i = 0; i < 5; i++) {
      expect(index.search('execute a shell command on devbox', 10)).toEqual(first);
    }
    expect(first[0]?.name).toBe('devbox__shell__exec');
    // Every distinct tool first, best first; then the copies in other environments, best first.
    const base = (name: string) => name.split('__').slice(1).join('__');
    const firstCopy = first.findIndex((h, i) =>
      first.slice(0, i).some((g) => base(g.name) === base(h.name)),
    );
    const distinct = firstCopy < 0 ? first : first.slice(0, firstCopy);
    const copies = firstCopy < 0 ? [] : first.slice(firstCopy);
    expect(new Set(distinct.map((h) => base(h.name))).size).toBe(distinct.length);
    for (const c of copies) expect(distinct.map((h) => base(h.name))).toContain(base(c.name));
    for (const part of [distinct, copies]) {
      const scores = part.map((h) => h.score);
      expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    }
    expect(copies.length).toBeGreaterThan(0);
  });

  it('lists a tool once per environment only after every distinct tool it found', () => {
    const index = ToolSearchIndex.build(fleet());
    // No environment named: run_tests ties in three environments, yet the shell and the file
    // reader come before its second copy.
    const names = index
      .search('run the tests, or a shell command, or read a file', 5)
      .map((h) => h.name);
    expect(
      names
        .slice(0, 3)
        .map((n) => n.split('__').slice(1).join('__'))
        .sort(),
    ).toEqual(['ci__run_tests', 'fs__read_text_file', 'shell__exec']);
  });
});
