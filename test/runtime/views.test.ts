/**
 * Views in the library (docs/tool-shaping.md), with real fixture servers in exec environments:
 * `Session.toolView()` selects, names and overrides tools; `always` names stay the same when an
 * environment is added; a session under a view refuses calls outside it (recorded as refused) and
 * records its calls with the view; an unknown view is refused before anything starts; search and
 * token costs come from the view's own definitions.
 */

import { describe, expect, it } from 'vitest';

import { ToolNotInViewError, UnknownViewError } from '@mcprt/runtime';

import { echoServer, shExecEnvironment, tempDir, waitFor } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { reviewView } from '../helpers/views.js';

const open = useRuntimes();

function envWithShared(id: string): string {
  return (
    shExecEnvironment(id, tempDir('mcprt-view-cwd-')) +
    echoServer(`environments.${id}.mcp_servers.shared`, `shared-${id}`)
  );
}

const VIEW = reviewView('title = "Echo on a"\nannotations = { readOnlyHint = true }');

async function readySession(toml: string, view: string | null = 'review') {
  const runtime = open(toml);
  const session = runtime.startSession({ view });
  await session.ready();
  return { runtime, session };
}

describe('Session.toolView', () => {
  it('selects, names and overrides the view’s tools', async () => {
    const { session } = await readySession(
      envWithShared('a') + envWithShared('b') + echoServer('mcp_servers.docs', 'docs') + VIEW,
    );
    const view = session.toolView();
    const names = view.tools.map((t) => `${t.name} ${t.path}`).sort();
    expect(names).toContain('echo_a a/shared/echo');
    expect(names).toContain('b__shared__echo b/shared/echo');
    expect(names).toContain('docs__echo -/docs/echo');
    expect(names.some((n) => n.endsWith('-/docs/fail'))).toBe(false);
    expect(names.some((n) => n.includes('/shared/env'))).toBe(false);
    const echoA = view.find('echo_a')!;
    expect(echoA.definition['title']).toBe('Echo on a (shared@a)');
    expect(echoA.definition['annotations']).toMatchObject({ readOnlyHint: true });
    expect(echoA.entry.tool.name).toBe('echo');
    // The whole inventory is still there without the view.
    expect(session.toolView(null).tools.length).toBeGreaterThan(view.tools.length);
  });

  it('keeps every `always` name when an environment is added', async () => {
    const before = await readySession(
      envWithShared('a') + echoServer('mcp_servers.docs', 'docs') + VIEW,
    );
    const namesBefore = new Map(before.session.toolView().tools.map((t) => [t.path, t.name]));
    const after = await readySession(
      envWithShared('a') + envWithShared('zz') + echoServer('mcp_servers.docs', 'docs') + VIEW,
    );
    const namesAfter = new Map(after.session.toolView().tools.map((t) => [t.path, t.name]));
    expect(namesAfter.size).toBeGreaterThan(namesBefore.size);
    for (const [path, name] of namesBefore) expect(namesAfter.get(path)).toBe(name);
  });

  it('counts tokens per server and says a view is over its threshold', async () => {
    const { session } = await readySession(
      envWithShared('a') + echoServer('mcp_servers.docs', 'docs') + VIEW,
    );
    const cost = session.toolView().cost();
    expect(cost.view).toBe('review');
    expect(cost.thresholdTokens).toBe(50);
    expect(cost.allTokens).toBe(cost.servers.reduce((n, s) => n + s.tokens, 0));
    expect(cost.allTokens).toBeGreaterThan(50);
    expect(cost.overThreshold).toBe(true); // tool_search = "off": over, not searching
    expect(cost.searching).toBe(false);
    expect(cost.listedTokens).toBe(cost.allTokens);
  });

  it('searches the view’s tools only', async () => {
    const { session } = await readySession(
      envWithShared('a') + echoServer('mcp_servers.docs', 'docs') + VIEW,
    );
    const hits = session.toolView().search('echo the message', 10);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits)
      expect(['echo_a', 'docs__echo', 'a__shared__whoami', 'docs__whoami']).toContain(h.name);
  });

  it('searches what a server added after list_changed (the index follows the inventory)', async () => {
    const { session } = await readySession(
      envWithShared('a') + envWithShared('b') + '\n[views.all]\ninclude = ["*/shared/*"]\n',
      'all',
    );
    const untouched = session.toolView().find('b__shared__echo')!.definition;
    expect(
      session
        .toolView()
        .search('deploy widget')
        .map((h) => h.name),
    ).not.toContain('a__shared__deploy_widget');
    const changed = new Promise((resolve) => session.once('inventoryChanged', resolve));
    await session.callTool({
      server: 'shared',
      environmentId: 'a',
      tool: 'add_tool',
      arguments: { tool: 'deploy_widget' },
    });
    await changed;
    await waitFor(() => session.toolView().find('a__shared__deploy_widget'));
    expect(session.toolView().search('deploy widget')[0]?.name).toBe('a__shared__deploy_widget');
    // The other server's definitions are reused (and so are their token counts).
    expect(session.toolView().find('b__shared__echo')!.definition).toBe(untouched);
  });
});

describe('a session under a view', () => {
  it('refuses a call outside the view, records it as refused, and records calls with the view', async () => {
    const { runtime, session } = await readySession(
      envWithShared('a') + echoServer('mcp_servers.docs', 'docs') + VIEW,
    );
    const ok = await session.callTool({
      server: 'shared',
      environmentId: 'a',
      tool: 'echo',
      arguments: { message: 'in view' },
    });
    expect(ok.content).toEqual([{ type: 'text', text: 'shared-a: in view' }]);
    const refused = session.callTool({
      server: 'shared',
      environmentId: 'a',
      tool: 'env',
      arguments: { key: 'HOME', token: 'secret-value-123' },
    });
    await expect(refused).rejects.toThrow(ToolNotInViewError);
    await expect(refused).rejects.toThrow(
      'tool `env` of `shared@a` is not in view `review`; refused',
    );
    const page = runtime.history!.list({ threadId: session.threadId });
    const byTool = new Map(page.data.map((r) => [r.tool, r]));
    expect(byTool.get('echo')).toMatchObject({
      status: 'completed',
      view: 'review',
      environmentId: 'a',
    });
    expect(byTool.get('env')).toMatchObject({
      status: 'refused',
      view: 'review',
      environmentId: 'a',
      error: 'tool `env` of `shared@a` is not in view `review`; refused',
    });
    expect(JSON.stringify(byTool.get('env')!.arguments)).not.toContain('secret-value-123');
  });

  it('is refused before anything starts when the view is unknown or invalid', () => {
    const runtime = open(envWithShared('a') + VIEW + '\n[views.bad]\ninclude = ["nope"]\n');
    expect(() => runtime.startSession({ view: 'nope' })).toThrow(UnknownViewError);
    expect(() => runtime.startSession({ view: 'nope' })).toThrow(
      'unknown view `nope` (defined: `review`)',
    );
    expect(() => runtime.startSession({ view: 'bad' })).toThrow(
      /^view `bad` is invalid: .*config\.toml:\d+:\d+: views\.bad\.include/,
    );
  });
});
