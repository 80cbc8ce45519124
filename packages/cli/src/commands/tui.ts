/**
 * `mcprt` on a terminal, `mcprt tui`, and `mcprt --remote ws://… [--token-file F]`: the terminal
 * UI. It always talks to an app-server through `@mcprt/sdk`: by default one started in this
 * process on the configured home (through `InProcessTransport`), with `--remote` one listening on
 * a WebSocket (`mcprt app-server --listen ws://…`). `--view NAME` starts the TUI's thread under
 * that view (`/mcp` then shows its tools and what they cost); in-process, an unknown view stops
 * here before the terminal is taken, remotely the TUI says why its thread did not start. Ink and
 * React are loaded only here. Without a terminal — or under CI, where Ink only draws the last
 * frame — the bare `mcprt` prints the status view instead (see status.ts).
 */

import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { AppServer } from '@mcprt/app-server';
import { loadConfig, resolveView } from '@mcprt/runtime';
import { McprtClient, SDK_VERSION } from '@mcprt/sdk';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import { InProcessTransport } from '../inProcess.js';
import { openFileInBrowser } from '../openApp.js';
import type { Io } from '../io.js';
import { configFile, openRuntime } from '../runtime.js';
import { closeOnSignal } from '../shutdown.js';

const CLIENT_INFO = { name: 'mcprt-tui', title: 'mcprt TUI', version: SDK_VERSION };
export async function tuiCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { remote: { type: 'string' }, 'token-file': { type: 'string' }, view: { type: 'string' } },
    'tui',
  );
  if (positionals.length > 0) throw new UsageError(`tui: unexpected argument '${positionals[0]}'`);
  if (values.view !== undefined && values.view.trim() === '')
    throw new UsageError('tui: --view needs a view name');
  const view = values.view !== undefined ? { view: values.view } : {};
  if (values['token-file'] !== undefined && values.remote === undefined)
    throw new UsageError('tui: --token-file needs --remote');
  const remote = values.remote === undefined ? null : parseRemote(values.remote);
  const token = values['token-file'] === undefined ? undefined : readToken(values['token-file']);
  if (remote === null && values.view !== undefined) {
    // Before the terminal is taken (or refused): an unknown view is one line, exit 1.
    const { file, mode } = configFile(globals);
    resolveView(loadConfig({ file, mode, strict: globals.strict }), values.view);
  }
  if (!io.isTTY || process.stdin.isTTY !== true)
    throw new UsageError('tui: the terminal UI needs a terminal on stdin and stdout');

  const { runTui } = await import('@mcprt/tui');
  // `/app … open` only: the TUI never opens a browser by itself.
  const apps = { openInBrowser: openFileInBrowser };
  if (remote !== null) {
    if (globals.home !== undefined || globals.codexHome !== undefined)
      io.err(
        'warning: --home/--codex-home are ignored with --remote (the remote server has its own)',
      );
    const client = await McprtClient.connect(remote, {
      clientInfo: CLIENT_INFO,
      ...(token !== undefined ? { token } : {}),
    });
    try {
      await runTui(client, { connectionLabel: remote, ...view, apps });
    } finally {
      await client.close();
    }
    return 0;
  }

  const home = dirname(configFile(globals).file);
  // Diagnostics would tear the TUI's screen: they are kept and printed after it closes.
  const logs: string[] = [];
  const keep = (line: string) => {
    logs.push(line);
    if (logs.length > 100) logs.shift();
  };
  const runtime = openRuntime(globals, io, keep);
  const server = new AppServer({ runtime, home, log: keep });
  closeOnSignal(() => server.close());
  try {
    const client = await McprtClient.create(new InProcessTransport(server), {
      clientInfo: CLIENT_INFO,
    });
    try {
      await runTui(client, { connectionLabel: 'in-process app-server', ...view, apps });
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
    for (const line of logs) io.err(line);
  }
  return 0;
}

function parseRemote(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`tui: --remote must be ws://HOST:PORT or wss://HOST:PORT, got '${value}'`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new UsageError(`tui: --remote must be ws://HOST:PORT or wss://HOST:PORT, got '${value}'`);
  return value;
}

function readToken(file: string): string {
  let value: string;
  try {
    value = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`tui: cannot read --token-file ${file}: ${(error as Error).message}`);
  }
  if (value === '') throw new UsageError(`tui: --token-file ${file} is empty`);
  return value;
}
