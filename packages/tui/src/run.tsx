/**
 * `runTui`: render the App on the terminal for an already-connected client, start the session,
 * and resolve when the user leaves. The caller owns the client (and any in-process server) and
 * closes it afterwards.
 */

import { render } from 'ink';

import type { McprtClient } from '@mcprt/sdk';

import { App } from './components/App.js';
import type { AppHost } from './controller/apps.js';
import { TuiController } from './controller/controller.js';

export interface RunTuiOptions {
  /** Shown in the header: `in-process app-server`, `ws://127.0.0.1:4500`. */
  readonly connectionLabel: string;
  /** The thread's cwd (default: this process's). */
  readonly cwd?: string;
  /** The view the thread runs under (`mcprt tui --view NAME`; default: none). */
  readonly view?: string;
  /** Where `/app` writes and how it opens a file in the browser (the CLI's opener). */
  readonly apps?: AppHost;
  readonly stdin?: NodeJS.ReadStream;
  readonly stdout?: NodeJS.WriteStream;
}

export async function runTui(client: McprtClient, options: RunTuiOptions): Promise<void> {
  const controller = new TuiController(client, {
    connectionLabel: options.connectionLabel,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.view !== undefined ? { view: options.view } : {}),
    ...(options.apps !== undefined ? { apps: options.apps } : {}),
  });
  const instance = render(<App controller={controller} />, {
    exitOnCtrlC: false,
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    ...(options.stdout !== undefined ? { stdout: options.stdout } : {}),
  });
  void controller.start();
  try {
    await instance.waitUntilExit();
  } finally {
    controller.close();
  }
}
