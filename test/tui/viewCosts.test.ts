/**
 * The TUI under a view (`mcprt tui --view NAME`), against a real in-process app-server and real
 * fixture servers: `/mcp` counts each server's tools within the view with their tokens, then the
 * view's totals with tool search off and on and its over-threshold warning — all through the
 * protocol (`thread/toolView/get`); a call outside the view is refused inline; an unknown view
 * says why the thread did not start.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expectFits, words } from '../../packages/tui/src/testing/render.js';
import { echoServer, shExecEnvironment, tempDir } from '../helpers/fixtures.js';
import type { TuiUnderTest } from './harness.js';
import { startTui } from './harness.js';
import { reviewView } from '../helpers/views.js';

const CONFIG =
  echoServer('mcp_servers.docs', 'docs', 'enabled_tools = ["echo", "whoami", "fail"]') +
  shExecEnvironment('a', tempDir()) +
  echoServer(
    'environments.a.mcp_servers.shared',
    'shared-a',
    'enabled_tools = ["echo", "whoami", "env"]',
  ) +
  reviewView();

const COLUMNS = 60;

describe('the TUI under a view', () => {
  let tui: TuiUnderTest;

  beforeAll(async () => {
    tui = await startTui(CONFIG, COLUMNS, { view: 'review' });
  });
  afterAll(async () => {
    await tui?.close();
  });

  it('/mcp shows each server’s tools in the view with tokens, the totals and the warning', async () => {
    const frame = await tui.waitForFrame(
      (f) => f.includes('set tool_search = "auto"'),
      '/mcp with the view’s costs',
    );
    const mcp = frame.slice(frame.indexOf('/mcp\nthread-wide'));
    expect(mcp.split('\n').slice(0, 11)).toEqual([
      '/mcp',
      'thread-wide',
      '  • docs: connected (2 tools, 85 tokens)',
      'environment a (exec)',
      '  • shared@a: connected (2 tools, 90 tokens)',
      'view `review`: 4 tools, 175 tokens with tool search off,',
      '  461 with it on; search is off',
      'warning: view `review` lists 175 tokens of tool',
      '  definitions, over its tool_search_threshold_tokens of 50;',
      '  set tool_search = "auto"',
      'Use /mcp verbose for tools and resources.',
    ]);
    expectFits(frame, COLUMNS);
    expect(tui.controller.getSnapshot().toolView).toMatchObject({ view: 'review', tools: 4 });
  });

  it('/mcp verbose names the view’s tools by their names in the view', async () => {
    await tui.run('/mcp verbose');
    const frame = await tui.waitForFrame(
      (f) => f.includes('/mcp verbose\nthread-wide') && f.includes('Model names: echo → echo_a'),
      '/mcp verbose',
    );
    const verbose = frame.slice(frame.lastIndexOf('/mcp verbose\nthread-wide'));
    expect(verbose).toContain('      Tools: echo, whoami\n');
    expect(verbose).toContain(
      '      Model names: echo → echo_a, whoami →\n        a__shared__whoami\n',
    );
    expect(verbose).not.toContain('fail');
  });

  it('refuses a call outside the view inline', async () => {
    await tui.run('/call docs fail');
    const frame = await tui.waitForFrame((f) => f.includes('refused'), 'the refusal');
    const cell = frame.slice(frame.lastIndexOf('• Called docs.fail'));
    expect(words(cell)).toEqual(
      expect.arrayContaining(
        words('Error: tool `fail` of `docs` is not in view `review`; refused'),
      ),
    );
  });
});

describe('the TUI with an unknown view', () => {
  it('says why its thread did not start', async () => {
    const tui = await startTui(CONFIG, 100, { view: 'ops' });
    try {
      const frame = await tui.waitForFrame((f) => f.includes('Could not start'), 'the error');
      expect(frame).toContain('Could not start a thread: unknown view `ops` (defined: `review`)');
      expect(tui.controller.getSnapshot().threadId).toBeNull();
    } finally {
      await tui.close();
    }
  });
});
