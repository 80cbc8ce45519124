/**
 * Tests for `[views.NAME]`, `[serve]` and environment `description`: defaults, every key, every
 * error with its exact text (a bad view fails alone), unknown-key warnings and strict mode.
 */

import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ConfigInvalidError } from '../errors.js';
import { loadConfig } from './load.js';
import type { LoadConfigOptions } from './load.js';
import type { McprtConfig } from './types.js';
import { DEFAULT_SERVE_AUTH } from './serveTypes.js';
import { DEFAULT_SERVE_STARTUP_WAIT_SEC } from './viewTypes.js';
import type { ViewConfig } from './viewTypes.js';

const F = resolve('/cfg/config.toml');

function load(
  lines: readonly string[],
  opts: Omit<LoadConfigOptions, 'file' | 'text'> = {},
): McprtConfig {
  return loadConfig({ ...opts, file: F, text: lines.join('\n') + '\n' });
}

/** Every diagnostic of `lines`, as strict mode throws them. */
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

const SERVER = ['[mcp_servers.docs]', 'command = "node"'];

/** The one invalid view of `lines` (named `bad`), with the views and servers that stay valid. */
function badView(lines: readonly string[]): { error: string; views: string[]; servers: string[] } {
  const config = load([...SERVER, '[views.good]', ...lines]);
  expect(config.invalidViews.map((v) => v.name)).toEqual(['bad']);
  return {
    error: config.invalidViews[0]!.error,
    views: config.views.map((v) => v.name),
    servers: config.servers.map((s) => s.scope.name),
  };
}

describe('[views.NAME]', () => {
  it('no [views] and no [serve]: none, and the serve defaults', () => {
    const config = load(SERVER);
    expect(config.views).toEqual([]);
    expect(config.invalidViews).toEqual([]);
    expect(config.serve).toEqual({
      view: null,
      toolPrefix: null,
      auth: DEFAULT_SERVE_AUTH,
      policies: [],
      startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
      metricsPublic: false,
      replicas: [],
    });
  });

  it('an empty view table takes every default', () => {
    const config = load(['[views.all]']);
    expect(config.warnings).toEqual([]);
    expect(config.views).toEqual([
      {
        name: 'all',
        include: ['*/*/*'],
        exclude: [],
        toolSearch: 'auto',
        toolSearchThresholdTokens: 10_000,
        alwaysLoad: [],
        toolPrefix: null,
        tools: {},
        location: at(1, 1, 'views.all'),
      },
    ] satisfies ViewConfig[]);
  });

  it('reads every key, in both config modes', () => {
    const lines = [
      '[views.github-ro]', // 1
      'include = ["-/github/*", "a/shared/dir/*", "b?x/*/get_*"]',
      'exclude = ["*/github/delete_*"]',
      'tool_search = "always"',
      'tool_search_threshold_tokens = 2500',
      'always_load = ["-/github/search_*"]',
      'tool_prefix = "conditional"',
      '[views.github-ro.tools."-/github/search_issues"]', // 8
      'name = "find_issues"',
      'title = "Find issues"',
      'description = "Search the issues of a repository."',
      'annotations = { readOnlyHint = true, title = "Find", openWorldHint = false }',
      '[views.github-ro.tools."a/shared/dir/list"]', // 13
      'description = "Lists a directory."',
      '[views.off]', // 15
      'tool_search = "off"',
      'tool_prefix = "always"',
      'tools = { "-/github/search" = { name = "search_tools" } }', // 18
    ];
    for (const mode of ['mcprt', 'codex'] as const) {
      const config = load(lines, { mode, strict: true });
      expect(config.invalidViews).toEqual([]);
      expect(config.views).toEqual([
        {
          name: 'github-ro',
          include: ['-/github/*', 'a/shared/dir/*', 'b?x/*/get_*'],
          exclude: ['*/github/delete_*'],
          toolSearch: 'always',
          toolSearchThresholdTokens: 2500,
          alwaysLoad: ['-/github/search_*'],
          toolPrefix: 'conditional',
          tools: {
            '-/github/search_issues': {
              name: 'find_issues',
              title: 'Find issues',
              description: 'Search the issues of a repository.',
              annotations: { readOnlyHint: true, title: 'Find', openWorldHint: false },
              location: at(8, 1, 'views.github-ro.tools."-/github/search_issues"'),
            },
            'a/shared/dir/list': {
              name: null,
              title: null,
              description: 'Lists a directory.',
              annotations: null,
              location: at(13, 1, 'views.github-ro.tools."a/shared/dir/list"'),
            },
          },
          location: at(1, 1, 'views.github-ro'),
        },
        {
          name: 'off',
          include: ['*/*/*'],
          exclude: [],
          toolSearch: 'off',
          toolSearchThresholdTokens: 10_000,
          alwaysLoad: [],
          toolPrefix: 'always',
          tools: {
            '-/github/search': {
              name: 'search_tools',
              title: null,
              description: null,
              annotations: null,
              location: at(18, 11, 'views.off.tools."-/github/search"'),
            },
          },
          location: at(15, 1, 'views.off'),
        },
      ] satisfies ViewConfig[]);
    }
  });

  it('include = [] is a view of nothing', () => {
    expect(load(['[views.none]', 'include = []']).views[0]?.include).toEqual([]);
  });

  const errorCases: [string, string[], string][] = [
    [
      'a pattern with fewer than two `/`',
      ['[views.bad]', 'include = ["-/docs/*", "docs/search"]'],
      `${F}:5:1: views.bad.include[1]: pattern \`docs/search\` must be \`<environment>/<server>/<tool>\` (\`-\` is the thread-wide scope)`,
    ],
    [
      'a bad exclude pattern',
      ['[views.bad]', 'exclude = ["github"]'],
      `${F}:5:1: views.bad.exclude[0]: pattern \`github\` must be \`<environment>/<server>/<tool>\` (\`-\` is the thread-wide scope)`,
    ],
    [
      'a bad always_load pattern (empty tool part)',
      ['[views.bad]', 'always_load = ["-/github/"]'],
      `${F}:5:1: views.bad.always_load[0]: pattern \`-/github/\` has an empty tool part`,
    ],
    [
      'an environment part no environment id can match',
      ['[views.bad]', 'include = ["my.env/docs/*"]'],
      `${F}:5:1: views.bad.include[0]: pattern \`my.env/docs/*\`: environment part \`my.env\` can match no environment (ids are ASCII letters, digits, '-' and '_'; \`-\` is the thread-wide scope)`,
    ],
    [
      'a non-string pattern',
      ['[views.bad]', 'include = ["-/docs/*", 3]'],
      `${F}:5:1: views.bad.include[1]: expected a string, found integer`,
    ],
    [
      'include that is not an array',
      ['[views.bad]', 'include = "*/*/*"'],
      `${F}:5:1: views.bad.include: expected an array of strings, found string`,
    ],
    [
      'an unknown tool_search mode',
      ['[views.bad]', 'tool_search = "sometimes"'],
      `${F}:5:1: views.bad.tool_search: unknown variant \`sometimes\`, expected one of \`auto\`, \`always\`, \`off\``,
    ],
    [
      'a tool_search that is not a string',
      ['[views.bad]', 'tool_search = false'],
      `${F}:5:1: views.bad.tool_search: expected a string, found boolean`,
    ],
    [
      'a zero tool_search_threshold_tokens',
      ['[views.bad]', 'tool_search_threshold_tokens = 0'],
      `${F}:5:1: views.bad.tool_search_threshold_tokens: tool_search_threshold_tokens must be a positive integer`,
    ],
    [
      'a fractional tool_search_threshold_tokens',
      ['[views.bad]', 'tool_search_threshold_tokens = 1.5'],
      `${F}:5:1: views.bad.tool_search_threshold_tokens: expected an integer, found float`,
    ],
    [
      'an unknown tool_prefix mode',
      ['[views.bad]', 'tool_prefix = "never"'],
      `${F}:5:1: views.bad.tool_prefix: unknown variant \`never\`, expected \`always\` or \`conditional\``,
    ],
    [
      'a view that is not a table',
      ['[views]', 'bad = 3'],
      `${F}:5:1: views.bad: expected a table, found integer`,
    ],
    [
      'tools that is not a table',
      ['[views.bad]', 'tools = ["-/docs/search"]'],
      `${F}:5:1: views.bad.tools: expected a table, found array`,
    ],
    [
      'an override key with one `/`',
      ['[views.bad.tools."docs/search"]', 'name = "find"'],
      `${F}:4:1: views.bad.tools."docs/search": tools key \`docs/search\` must be \`<environment>/<server>/<tool>\` (\`-\` is the thread-wide scope)`,
    ],
    [
      'an override key with a wildcard',
      ['[views.bad.tools."-/docs/*"]', 'name = "find"'],
      `${F}:4:1: views.bad.tools."-/docs/*": tools key \`-/docs/*\` must be an exact path: \`*\` and \`?\` are wildcards, which only include, exclude and always_load take`,
    ],
    [
      'an override key with an empty server part',
      ['[views.bad.tools."-//search"]', 'name = "find"'],
      `${F}:4:1: views.bad.tools."-//search": tools key \`-//search\` has an empty server part`,
    ],
    [
      'an override that is not a table',
      ['[views.bad.tools]', '"-/docs/search" = "find"'],
      `${F}:5:1: views.bad.tools."-/docs/search": expected a table, found string`,
    ],
    [
      'a name with a character outside [A-Za-z0-9_-]',
      ['[views.bad.tools."-/docs/search"]', 'name = "find issues"'],
      `${F}:5:1: views.bad.tools."-/docs/search".name: name \`find issues\` must match ^[A-Za-z0-9_-]{1,64}$`,
    ],
    [
      'a name longer than 64 characters',
      ['[views.bad.tools."-/docs/search"]', `name = "${'n'.repeat(65)}"`],
      `${F}:5:1: views.bad.tools."-/docs/search".name: name \`${'n'.repeat(65)}\` must match ^[A-Za-z0-9_-]{1,64}$`,
    ],
    [
      'an empty name',
      ['[views.bad.tools."-/docs/search"]', 'name = ""'],
      `${F}:5:1: views.bad.tools."-/docs/search".name: name \`\` must match ^[A-Za-z0-9_-]{1,64}$`,
    ],
    [
      'a name that is not a string',
      ['[views.bad.tools."-/docs/search"]', 'name = 1'],
      `${F}:5:1: views.bad.tools."-/docs/search".name: expected a string, found integer`,
    ],
    [
      'a title that is not a string',
      ['[views.bad.tools."-/docs/search"]', 'title = ["t"]'],
      `${F}:5:1: views.bad.tools."-/docs/search".title: expected a string, found array`,
    ],
    [
      'a description that is not a string',
      ['[views.bad.tools."-/docs/search"]', 'description = 2'],
      `${F}:5:1: views.bad.tools."-/docs/search".description: expected a string, found integer`,
    ],
    [
      'annotations that are not a table',
      ['[views.bad.tools."-/docs/search"]', 'annotations = "read-only"'],
      `${F}:5:1: views.bad.tools."-/docs/search".annotations: expected a table, found string`,
    ],
    [
      'an annotation hint that is not a boolean',
      ['[views.bad.tools."-/docs/search"]', 'annotations = { readOnlyHint = "yes" }'],
      `${F}:5:17: views.bad.tools."-/docs/search".annotations.readOnlyHint: expected a boolean, found string`,
    ],
    [
      'an annotation title that is not a string',
      ['[views.bad.tools."-/docs/search".annotations]', 'title = false'],
      `${F}:5:1: views.bad.tools."-/docs/search".annotations.title: expected a string, found boolean`,
    ],
    [
      'two overrides renamed to the same name',
      [
        '[views.bad.tools."-/docs/search"]',
        'name = "find"',
        '[views.bad.tools."a/wiki/search"]',
        'name = "find"',
      ],
      `${F}:7:1: views.bad.tools."a/wiki/search".name: tools \`-/docs/search\` and \`a/wiki/search\` are both renamed to \`find\``,
    ],
    [
      'a rename to search_tools while tool search is on (default auto)',
      ['[views.bad.tools."-/docs/search"]', 'name = "search_tools"'],
      `${F}:5:1: views.bad.tools."-/docs/search".name: name \`search_tools\` is a tool search meta-tool's name (free only with tool_search = "off")`,
    ],
    [
      'a rename to get_tool_details with tool_search = "always"',
      ['[views.bad]', 'tool_search = "always"', 'tools."-/docs/x".name = "get_tool_details"'],
      `${F}:6:18: views.bad.tools."-/docs/x".name: name \`get_tool_details\` is a tool search meta-tool's name (free only with tool_search = "off")`,
    ],
    [
      'a rename to call_tool with tool_search = "auto"',
      ['[views.bad]', 'tool_search = "auto"', 'tools."-/docs/x".name = "call_tool"'],
      `${F}:6:18: views.bad.tools."-/docs/x".name: name \`call_tool\` is a tool search meta-tool's name (free only with tool_search = "off")`,
    ],
  ];

  for (const [what, lines, message] of errorCases) {
    it(`fails a view alone for ${what}`, () => {
      expect(badView(lines)).toEqual({ error: message, views: ['good'], servers: ['docs'] });
    });
  }

  it('refuses a view name outside [A-Za-z0-9_-]', () => {
    const config = load(['[views."read only"]', '[views.ok]']);
    expect(config.views.map((v) => v.name)).toEqual(['ok']);
    expect(config.invalidViews).toEqual([
      {
        name: 'read only',
        error: `${F}:1:1: views."read only": invalid view name \`read only\`: must match pattern ^[A-Za-z0-9_-]+$`,
        location: at(1, 1, 'views."read only"'),
      },
    ]);
  });

  it("a view's error is its first in source order; every one is a diagnostic", () => {
    const lines = [
      '[views.bad]',
      'tool_prefix = "x"', // 2
      'include = ["y"]', // 3
      '[views.bad.tools."-/docs/search"]',
      'name = "a b"', // 5
    ];
    expect(load(lines).invalidViews).toEqual([
      {
        name: 'bad',
        error: `${F}:2:1: views.bad.tool_prefix: unknown variant \`x\`, expected \`always\` or \`conditional\``,
        location: at(1, 1, 'views.bad'),
      },
    ]);
    expect(strictMessages(lines)).toEqual([
      `${F}:2:1: views.bad.tool_prefix: unknown variant \`x\`, expected \`always\` or \`conditional\``,
      `${F}:3:1: views.bad.include[0]: pattern \`y\` must be \`<environment>/<server>/<tool>\` (\`-\` is the thread-wide scope)`,
      `${F}:5:1: views.bad.tools."-/docs/search".name: name \`a b\` must match ^[A-Za-z0-9_-]{1,64}$`,
    ]);
  });

  it('unknown keys are warnings; the view stays valid', () => {
    const lines = [
      '[views.v]',
      'inculde = ["*/*/*"]', // 2
      '[views.v.tools."-/docs/search"]',
      'nmae = "find"', // 4
      'annotations = { readonlyHint = true, destructiveHint = false }', // 5
    ];
    const config = load(lines);
    expect(config.invalidViews).toEqual([]);
    expect(config.views[0]?.tools['-/docs/search']?.annotations).toEqual({
      readonlyHint: true,
      destructiveHint: false,
    });
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:2:1: views.v.inculde: unknown key \`inculde\``,
      `${F}:4:1: views.v.tools."-/docs/search".nmae: unknown key \`nmae\``,
      `${F}:5:17: views.v.tools."-/docs/search".annotations.readonlyHint: unknown key \`readonlyHint\``,
    ]);
    expect(config.warnings.every((w) => w.severity === 'warning')).toBe(true);
  });

  it('a [views] that is not a table is a warning at the top level', () => {
    const config = load(['views = ["v"]', ...SERVER]);
    expect(config.views).toEqual([]);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:1:1: views: expected a table, found array`,
    ]);
    expect(config.servers.map((s) => s.scope.name)).toEqual(['docs']);
  });

  it('strict mode throws for a bad view and for an unknown key in a good one', () => {
    expect(strictMessages(['[views.v]', 'tool_search = "on"'])).toEqual([
      `${F}:2:1: views.v.tool_search: unknown variant \`on\`, expected one of \`auto\`, \`always\`, \`off\``,
    ]);
    expect(strictMessages(['[views.v]', 'colour = "blue"'])).toEqual([
      `${F}:2:1: views.v.colour: unknown key \`colour\``,
    ]);
    expect(load(['[views.v]', 'tool_search = "off"'], { strict: true }).views).toHaveLength(1);
  });
});

describe('[serve]', () => {
  it('reads view and tool_prefix', () => {
    const config = load(['[views.ro]', '[serve]', 'view = "ro"', 'tool_prefix = "always"'], {
      strict: true,
    });
    expect(config.serve).toEqual({
      view: 'ro',
      toolPrefix: 'always',
      auth: DEFAULT_SERVE_AUTH,
      policies: [],
      startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
      metricsPublic: false,
      replicas: [],
    });
  });

  it('is read in codex mode too', () => {
    const config = load(['[views.ro]', '[serve]', 'view = "ro"'], { mode: 'codex', strict: true });
    expect(config.serve).toEqual({
      view: 'ro',
      toolPrefix: null,
      auth: DEFAULT_SERVE_AUTH,
      policies: [],
      startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
      metricsPublic: false,
      replicas: [],
    });
  });

  it('a view that is not defined is an error, and the name is kept so serve refuses it', () => {
    const lines = ['[views.ro]', '[views.all]', '[serve]', 'view = "r0"'];
    const config = load(lines);
    expect(config.serve).toEqual({
      view: 'r0',
      toolPrefix: null,
      auth: DEFAULT_SERVE_AUTH,
      policies: [],
      startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
      metricsPublic: false,
      replicas: [],
    });
    expect(config.warnings).toEqual([]);
    expect(strictMessages(lines)).toEqual([
      `${F}:4:1: serve.view: view \`r0\` is not defined in [views] (defined: \`ro\`, \`all\`)`,
    ]);
    expect(strictMessages(['[serve]', 'view = "ro"'])).toEqual([
      `${F}:2:1: serve.view: view \`ro\` is not defined in [views]`,
    ]);
  });

  it('a view that is invalid is kept with no second diagnostic (its own error is reported)', () => {
    const lines = ['[views.ro]', 'tool_search = "x"', '[serve]', 'view = "ro"'];
    const config = load(lines);
    expect(config.serve.view).toBe('ro');
    expect(config.invalidViews.map((v) => v.name)).toEqual(['ro']);
    expect(strictMessages(lines)).toEqual([
      `${F}:2:1: views.ro.tool_search: unknown variant \`x\`, expected one of \`auto\`, \`always\`, \`off\``,
    ]);
  });

  it('a bad key is an error diagnostic and falls back to null; unknown keys are warnings', () => {
    const lines = ['[serve]', 'view = 1', 'tool_prefix = "sometimes"', 'listen = "stdio"'];
    const config = load(lines);
    expect(config.serve).toEqual({
      view: null,
      toolPrefix: null,
      auth: DEFAULT_SERVE_AUTH,
      policies: [],
      startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
      metricsPublic: false,
      replicas: [],
    });
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:4:1: serve.listen: unknown key \`listen\``,
    ]);
    expect(strictMessages(lines)).toEqual([
      `${F}:2:1: serve.view: expected a string, found integer`,
      `${F}:3:1: serve.tool_prefix: unknown variant \`sometimes\`, expected \`always\` or \`conditional\``,
      `${F}:4:1: serve.listen: unknown key \`listen\``,
    ]);
  });

  it('reads startup_wait_sec (integer seconds, 0..=600; a bad value keeps the default)', () => {
    const wait = (line: string) => load(['[serve]', line], { strict: true }).serve.startupWaitSec;
    expect(wait('startup_wait_sec = 5')).toBe(5);
    expect(wait('startup_wait_sec = 0')).toBe(0);
    const lines = ['[serve]', 'startup_wait_sec = 601'];
    expect(load(lines).serve.startupWaitSec).toBe(DEFAULT_SERVE_STARTUP_WAIT_SEC);
    expect(strictMessages(lines)).toEqual([
      `${F}:2:1: serve.startup_wait_sec: startup_wait_sec must be between 0 and 600`,
    ]);
    expect(strictMessages(['[serve]', 'startup_wait_sec = 1.5'])).toEqual([
      `${F}:2:1: serve.startup_wait_sec: expected an integer, found float`,
    ]);
  });

  it('reads metrics_public (a boolean, default false)', () => {
    const serve = (lines: string[]) => load(['[serve]', ...lines], { strict: true }).serve;
    expect(serve([]).metricsPublic).toBe(false);
    expect(serve(['metrics_public = true']).metricsPublic).toBe(true);
    expect(strictMessages(['[serve]', 'metrics_public = "yes"'])).toEqual([
      `${F}:2:1: serve.metrics_public: expected a boolean, found string`,
    ]);
  });

  it('reads replicas as origins; a path, credentials, a query or a repeat is named', () => {
    const lines = ['[serve]', 'replicas = ["http://127.0.0.1:7001", "http://127.0.0.1:7002/mcp"]'];
    expect(load(lines, { strict: true }).serve.replicas).toEqual([
      'http://127.0.0.1:7001',
      'http://127.0.0.1:7002',
    ]);
    const bad = [
      '[serve]',
      'replicas = ["http://127.0.0.1:7001", "http://u:p@h:1", "ftp://h:1", "http://h:1/x", "http://127.0.0.1:7001/"]',
    ];
    expect(load(bad).serve.replicas).toEqual(['http://127.0.0.1:7001']);
    const messages = strictMessages(bad);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain(
      'serve.replicas: `http://u:p@h:1` is not an http(s)://HOST:PORT origin',
    );
    expect(messages[1]).toContain('`ftp://h:1` is not an http(s)://HOST:PORT origin');
    expect(messages[2]).toContain('`http://h:1/x` is not');
    expect(messages[3]).toContain('`http://127.0.0.1:7001/` is listed twice');
  });

  it('a [serve] that is not a table is a warning', () => {
    const config = load(['serve = "ro"']);
    expect(config.serve).toEqual({
      view: null,
      toolPrefix: null,
      auth: DEFAULT_SERVE_AUTH,
      policies: [],
      startupWaitSec: DEFAULT_SERVE_STARTUP_WAIT_SEC,
      metricsPublic: false,
      replicas: [],
    });
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:1:1: serve: expected a table, found string`,
    ]);
  });
});

describe('environment description', () => {
  it('is read for exec and ssh environments, null when absent', () => {
    const config = load(
      [
        '[environments.ctr]',
        'type = "exec"',
        'program = "docker"',
        'description = "The build container (Debian, Node 20)."',
        '[environments.gpu]',
        'type = "ssh"',
        'host = "gpu.example"',
        'description = "GPU box"',
        '[environments.bare]',
        'type = "exec"',
        'program = "sh"',
      ],
      { strict: true },
    );
    expect(config.environments.map((e) => [e.id, e.description])).toEqual([
      ['ctr', 'The build container (Debian, Node 20).'],
      ['gpu', 'GPU box'],
      ['bare', null],
    ]);
  });

  it('a description that is not a string fails the environment (and its servers)', () => {
    const config = load([
      '[environments.ctr]',
      'type = "exec"',
      'program = "docker"',
      'description = 3',
      '[environments.ctr.mcp_servers.s]',
      'command = "x"',
    ]);
    expect(config.environments).toEqual([]);
    expect(config.invalidEnvironments).toEqual([
      {
        id: 'ctr',
        error: `${F}:4:1: environments.ctr.description: expected a string, found integer`,
        location: at(1, 1, 'environments.ctr'),
      },
    ]);
    expect(config.invalidServers[0]?.error).toBe(
      `${F}:5:1: environments.ctr.mcp_servers.s: environment \`ctr\` is invalid: expected a string, found integer`,
    );
  });
});
