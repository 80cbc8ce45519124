/**
 * MCP Apps in the whole TUI (`App` + `TuiController`) on a real in-process app-server, with the
 * fixture app server (apps-server.mjs, the same `ui://` URI) thread-wide and in an exec
 * environment: `/mcp verbose` marks the tools that have an app UI, `/app` writes that scope's
 * HTML — under the Content-Security-Policy the resource declared — to a new 0600 file and says
 * where, opens a browser only when asked (`open`), and says clearly what it cannot do.
 */

import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, NODE, q, REPO_ROOT, shExecEnvironment, tempDir } from '../helpers/fixtures.js';
import type { TuiUnderTest } from './harness.js';
import { startTui } from './harness.js';

const APPS = `${REPO_ROOT}/test/fixtures/servers/apps-server.mjs`;
const appsServer = (table: string, name: string) =>
  `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([APPS, '--name', name])}\n`;

describe('/app in the TUI', () => {
  let tui: TuiUnderTest;
  const opened: string[] = [];
  const appDir = tempDir('mcprt-tui-apps-');

  beforeAll(async () => {
    tui = await startTui(
      appsServer('mcp_servers.apps', 'local') +
        shExecEnvironment('box', tempDir()) +
        appsServer('environments.box.mcp_servers.apps', 'box'),
      100,
      { apps: { appDir, openInBrowser: (path) => (opened.push(path), Promise.resolve()) } },
    );
    await tui.waitForFrame(
      (f) => f.includes('• apps: connected') && f.includes('• apps@box: connected'),
      'both servers ready',
    );
  });
  afterAll(() => tui?.close());

  it('marks the tools that have an app UI in /mcp verbose', async () => {
    await tui.run('/mcp verbose');
    const frame = await tui.waitForFrame((f) => f.includes('show_app [app]'), 'the marker');
    expect(frame).toContain('Tools: plain, client_ui, show_app [app], legacy_app [app], app_only');
  });

  const wrote = (frame: string, label: string): string => {
    const m = new RegExp(
      `App of ${label.replace(/[.@]/g, '\\$&')} \\(ui://demo/app\\.html\\)\\n\\s+└ wrote (\\S+)`,
    ).exec(frame);
    expect(m, frame).not.toBeNull();
    return m![1]!;
  };

  it('writes the scope its own HTML, 0600, under the declared CSP, and opens nothing', async () => {
    await tui.run('/app apps show_app --environment box');
    const frame = await tui.waitForFrame((f) => f.includes('apps@box.show_app ('), '/app box');
    const file = wrote(frame, 'apps@box.show_app');
    expect(dirname(dirname(file))).toBe(appDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('<p id="where">app of box</p>');
    expect(html).toContain(
      `<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com;`,
    );
    expect(html).toContain("connect-src https://api.example.com; frame-src 'none'");
    expect(frame).toContain('/app apps show_app --environment box open opens it in your browser');
    expect(opened).toEqual([]);
  });

  it('opens the file only with `open`; a server alone means its thread-wide one', async () => {
    await tui.run('/app apps legacy_app open');
    const frame = await tui.waitForFrame((f) => f.includes('opened in your browser'), 'opened');
    const file = wrote(frame, 'apps.legacy_app');
    expect(readFileSync(file, 'utf8')).toContain('app of local');
    expect(opened).toEqual([file]);
  });

  it('says which tool is meant when a name is ambiguous, unknown or has no app', async () => {
    await tui.run('/app show_app');
    await tui.waitForFrame(
      (f) =>
        f.includes(
          'Error: `show_app` has an app UI in `apps`, `apps@box`; name one: /app <server>',
        ),
      'ambiguous',
    );
    await tui.run('/app apps plain');
    await tui.waitForFrame(
      (f) => f.includes('Error: no tool `plain` of `apps` has an app UI'),
      'no app',
    );
    await tui.run('/app show_app --environment nowhere');
    await tui.waitForFrame(
      (f) => f.includes('Error: no tool `show_app` in environment `nowhere` has an app UI'),
      'unknown environment',
    );
    await tui.run('/app');
    await tui.waitForFrame(
      (f) => f.includes('usage: /app [<server>] <tool> [open] [--environment <id>]'),
      'usage',
    );
    await tui.run('/app a b c d');
    await tui.waitForFrame((f) => f.split('usage: /app').length > 2, 'usage again');
    await tui.run('/app show_app --bogus');
    await tui.waitForFrame((f) => f.includes('unknown option --bogus; usage: /app'), 'bad flag');
    // A name that exists in one scope only needs no server.
    await tui.run('/app app_only --environment box');
    const frame = await tui.waitForFrame((f) => f.includes('apps@box.app_only ('), 'by tool');
    expect(readFileSync(wrote(frame, 'apps@box.app_only'), 'utf8')).toContain('app of box');
  });
});
