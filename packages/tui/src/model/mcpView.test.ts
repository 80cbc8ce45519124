/**
 * `/mcp` and `/mcp verbose` view tests: the view-models rendered through the real Ink `Lines`
 * component (ink-testing-library) — same name in several environments, a failed server with its
 * stderr tail, authentication required, live startup updates, a view's tokens and totals with its
 * warning — and every view at 60 columns.
 */

import type { ThreadToolViewGetResult } from '@mcprt/protocol';

import { describe, expect, it } from 'vitest';

import { expectFits, renderLines, words } from '../testing/render.js';
import { startup, statusItem } from '../testing/statusItems.js';
import type { EnvironmentSummary, McpViewContext } from './mcpView.js';
import { compactView, verboseView } from './mcpView.js';
import type { Registration } from './registrations.js';
import { applyStartupUpdate, applyStatusList, legacyScope, statusLabel } from './registrations.js';

const environments = new Map<string, EnvironmentSummary>([
  ['local', { kind: 'local', status: 'ready', error: null }],
  ['sandbox', { kind: 'exec', status: 'ready', error: null }],
  ['buildbox', { kind: 'exec', status: 'ready', error: null }],
]);
const ctx = (width = 100): McpViewContext => ({
  width,
  environmentOrder: ['local', 'sandbox', 'buildbox'],
  environments,
});

const CAUSE =
  'MCP client for `broken@buildbox` failed to start: server process exited with code 127 during initialize; stderr: mcprt-cd: 1: exec: mcprt-demo-missing-binary: not found';

function demoRegistrations(): Registration[] {
  return applyStatusList(
    [],
    [
      statusItem('broken', 'buildbox', {
        runtimeStatus: 'failed',
        startupStatus: 'failed',
        toolsError: CAUSE,
        serverInfo: null,
        stderrTail: ['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', '', 'last line'],
      }),
      statusItem('everything', null, { toolNames: ['echo', 'get-sum', 'get-env'] }),
      statusItem('shared', null, { toolNames: ['echo', 'whoami'] }),
      statusItem('shared', 'sandbox', { toolNames: ['echo', 'whoami', 'env'] }),
      statusItem('shared', 'buildbox', { toolNames: ['echo'] }),
    ],
    1,
  );
}

describe('/mcp compact view', () => {
  it('lists the same name once per registration scope, grouped by environment', () => {
    expect(renderLines(compactView(demoRegistrations(), ctx()))).toBe(
      [
        '/mcp',
        'thread-wide',
        '  • everything: connected (3 tools)',
        '  • shared: connected (2 tools)',
        'environment sandbox (exec)',
        '  • shared@sandbox: connected (3 tools)',
        'environment buildbox (exec)',
        '  • broken@buildbox: failed',
        '  • shared@buildbox: connected (1 tool)',
        'Use /mcp verbose for tools, resources and failure causes.',
      ].join('\n'),
    );
  });

  it('follows startup notifications live, and a later list wins over an earlier notification', () => {
    let regs = applyStatusList(
      [],
      [
        statusItem('shared', null, { runtimeStatus: 'starting', startupStatus: 'starting' }),
        statusItem('shared', 'sandbox', { runtimeStatus: 'starting', startupStatus: 'starting' }),
      ],
      1,
    );
    expect(renderLines(compactView(regs, ctx()))).toContain('  • shared@sandbox: starting');
    regs = applyStartupUpdate(regs, startup('shared', 'sandbox', 'ready'), 2);
    regs = applyStartupUpdate(regs, startup('shared', null, 'failed', 'boom'), 3);
    let frame = renderLines(compactView(regs, ctx()));
    expect(frame).toContain('  • shared@sandbox: connected (0 tools)');
    expect(frame).toContain('  • shared: failed');
    // The list fetched after those notifications has the tool count.
    regs = applyStatusList(
      regs,
      [
        statusItem('shared', null, { runtimeStatus: 'failed', toolsError: 'boom' }),
        statusItem('shared', 'sandbox', { toolNames: ['echo', 'whoami'] }),
      ],
      4,
    );
    frame = renderLines(compactView(regs, ctx()));
    expect(frame).toContain('  • shared@sandbox: connected (2 tools)');
    expect(frame).toContain('  • shared: failed');
  });

  it('shows a registration announced by a notification before any list', () => {
    const regs = applyStartupUpdate([], startup('late', 'buildbox', 'starting'), 1);
    expect(renderLines(compactView(regs, ctx()))).toContain('  • late@buildbox: starting');
  });

  it('says so when nothing is configured', () => {
    expect(renderLines(compactView([], ctx()))).toBe('/mcp\nNo MCP servers configured.');
  });

  it('routes a call without --environment like the runtime: thread-wide first, then thread order', () => {
    const regs = demoRegistrations();
    expect(legacyScope(regs, 'shared', ['local', 'sandbox', 'buildbox'])).toBeNull();
    expect(legacyScope(regs, 'broken', ['local', 'sandbox', 'buildbox'])).toBe('buildbox');
    expect(legacyScope(regs, 'missing', ['local', 'sandbox'])).toBeUndefined();
  });
});

describe('/mcp with the thread’s tool costs (thread/toolView/get)', () => {
  const review: ThreadToolViewGetResult = {
    view: 'review',
    tools: 4,
    searching: false,
    thresholdTokens: 50,
    allTokens: 175,
    searchTokens: 461,
    listedTokens: 175,
    overThreshold: true,
    servers: [
      { server: 'everything', environmentId: null, tools: 3, tokens: 120 },
      { server: 'shared', environmentId: 'sandbox', tools: 1, tokens: 55 },
    ],
  };
  const regs = () =>
    applyStatusList(
      [],
      [
        statusItem('everything', null, { toolNames: ['echo', 'get-sum', 'get-env'] }),
        statusItem('shared', 'sandbox', { toolNames: ['echo'] }),
        statusItem('docs', null, { toolNames: [] }),
      ],
      1,
    );

  it('shows each server’s tokens, the totals with search off and on, and the warning', () => {
    expect(renderLines(compactView(regs(), { ...ctx(), toolView: review }))).toBe(
      [
        '/mcp',
        'thread-wide',
        '  • docs: connected (0 tools)',
        '  • everything: connected (3 tools, 120 tokens)',
        'environment sandbox (exec)',
        '  • shared@sandbox: connected (1 tool, 55 tokens)',
        'view `review`: 4 tools, 175 tokens with tool search off, 461 with it on; search is off',
        'warning: view `review` lists 175 tokens of tool definitions, over its tool_search_threshold_tokens',
        '  of 50; set tool_search = "auto"',
        'Use /mcp verbose for tools and resources.',
      ].join('\n'),
    );
    const verbose = renderLines(verboseView(regs(), { ...ctx(), toolView: review }));
    expect(verbose).toContain('  • everything: connected (3 tools, 120 tokens)\n      Server:');
    expect(verbose).toContain(
      'view `review`: 4 tools, 175 tokens with tool search off, 461 with it on; search is off',
    );
  });

  it('says search is on without a warning, and fits 60 columns', () => {
    const searching = { ...review, searching: true, overThreshold: false, listedTokens: 461 };
    const frame = renderLines(compactView(regs(), { ...ctx(60), toolView: searching }));
    expectFits(frame, 60);
    expect(frame).not.toContain('warning');
    expect(words(frame)).toEqual(
      expect.arrayContaining(
        words(
          'view `review`: 4 tools, 175 tokens with tool search off, 461 with it on; search is on',
        ),
      ),
    );
  });

  it('shows no tokens while the costs are not known (an app-server without the method)', () => {
    const frame = renderLines(compactView(regs(), { ...ctx(), toolView: null }));
    expect(frame).toContain('  • everything: connected (3 tools)\n');
    expect(frame).not.toContain('tokens');
  });
});

describe('/mcp verbose view', () => {
  it('shows auth, tools with their model-visible names, resources and templates', () => {
    const regs = applyStatusList(
      [],
      [
        statusItem('shared', 'sandbox', {
          toolNames: ['echo', 'get-sum'],
          resources: [{ name: 'greeting', uri: 'fixture://greeting' }],
          resourceTemplates: [{ name: 'doc', title: 'Document', uriTemplate: 'doc://{id}' }],
        }),
      ],
      1,
    );
    expect(renderLines(verboseView(regs, ctx()))).toBe(
      [
        '/mcp verbose',
        'environment sandbox (exec)',
        '  • shared@sandbox: connected (2 tools)',
        '      Server: shared-server 1.0.0',
        '      Auth: Unsupported',
        '      Tools: echo, get-sum',
        '      Model names: mcp__sandbox__shared__<tool>',
        '      Resources: greeting (fixture://greeting)',
        '      Resource templates: Document (doc://{id})',
      ].join('\n'),
    );
  });

  it('shows the cause and the last stderr lines of a failed server, and none for healthy ones', () => {
    const frame = renderLines(verboseView(demoRegistrations(), ctx()));
    const broken = frame.slice(
      frame.indexOf('• broken@buildbox'),
      frame.indexOf('• shared@buildbox'),
    );
    expect(broken).toContain('• broken@buildbox: failed');
    expect(words(broken)).toEqual(expect.arrayContaining(words(CAUSE)));
    expect(broken).toContain('Stderr (last lines):');
    // The last five non-empty lines, oldest first.
    expect(broken).toMatch(/ {8}line 3\n {8}line 4\n {8}line 5\n {8}line 6\n {8}last line/);
    expect(broken).not.toContain('line 2');
    const healthy = frame.slice(frame.indexOf('• shared@buildbox'));
    expect(healthy).not.toContain('Stderr');
    expect(healthy).not.toContain('Cause');
  });

  it('shows the cause a startup notification carried when the list has none yet', () => {
    const regs = applyStartupUpdate(
      applyStatusList([], [statusItem('slow', null, { runtimeStatus: 'starting' })], 1),
      startup('slow', null, 'failed', 'MCP server `slow` timed out after 1 s'),
      2,
    );
    expect(renderLines(verboseView(regs, ctx()))).toContain(
      '      Cause: MCP server `slow` timed out after 1 s',
    );
  });
});

describe('authentication required', () => {
  it('labels a registration that needs a login and tells how to log in to that scope', () => {
    const regs = applyStatusList(
      [],
      [
        statusItem('web', 'sandbox', {
          runtimeStatus: 'authenticationRequired',
          authStatus: 'notLoggedIn',
          toolsError: 'The web MCP server is not logged in. Run `mcprt mcp login web`.',
        }),
        statusItem('web', null, {
          runtimeStatus: 'connected',
          authStatus: 'oAuth',
          toolNames: ['echo'],
        }),
      ],
      1,
    );
    expect(renderLines(compactView(regs, ctx()))).toContain(
      '  • web@sandbox: authentication required',
    );
    const verbose = renderLines(verboseView(regs, ctx()));
    expect(verbose).toContain('      Auth: Not logged in');
    expect(verbose).toContain('      Login: /mcp login web --environment sandbox');
    expect(verbose).toContain('      Auth: OAuth');
  });

  it('comes from a startup failure that needs reauthentication, and from notLoggedIn without a runtime', () => {
    const fromStartup = applyStartupUpdate(
      [],
      startup('web', 'sandbox', 'failed', 'not logged in', 'reauthenticationRequired'),
      1,
    );
    expect(statusLabel(fromStartup[0]!)).toBe('authentication required');
    const noRuntime = applyStatusList(
      [],
      [statusItem('web', null, { runtimeStatus: null, authStatus: 'notLoggedIn' })],
      1,
    );
    expect(statusLabel(noRuntime[0]!)).toBe('authentication required');
    const unknown = applyStatusList([], [statusItem('web', null, { runtimeStatus: null })], 1);
    expect(statusLabel(unknown[0]!)).toBe('unknown');
  });
});

describe('60 columns', () => {
  it('fits compact and verbose views, shortening names but never the status', () => {
    const long = 'a-server-with-a-really-quite-long-name-that-goes-on';
    const regs = [
      ...demoRegistrations(),
      ...applyStatusList([], [statusItem(long, 'sandbox', { toolNames: ['echo'] })], 2),
    ];
    const compact = renderLines(compactView(regs, ctx(60)));
    expectFits(compact, 60);
    expect(compact).toMatch(/ {2}• a-server-with-a-really-quite-lo.*…: connected \(1 tool\)/);
    const verbose = renderLines(verboseView(regs, ctx(60)));
    expectFits(verbose, 60);
    // Wrapped, not cut: every word of the cause is still there.
    expect(words(verbose)).toEqual(expect.arrayContaining(words(CAUSE)));
    for (const l of verbose.split('\n').filter((x) => x.startsWith('        ')))
      expect(l.trim()).not.toBe('');
  });
});
