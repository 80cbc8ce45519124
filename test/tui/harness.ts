/**
 * The TUI under test, wired as `mcprt` wires it: a real runtime and `AppServer` in this process,
 * reached through the CLI's `InProcessTransport` and `McprtClient`, the real `App` rendered by
 * ink-testing-library at a fixed width. Keys go in through its stdin; frames come out without
 * colour codes.
 */

import { stripVTControlCharacters } from 'node:util';

import { render } from 'ink-testing-library';
import { createElement as h } from 'react';

import { AppServer } from '@mcprt/app-server';
import { Runtime } from '@mcprt/runtime';
import { McprtClient } from '@mcprt/sdk';
import { App, TuiController } from '@mcprt/tui';
import type { AppHost } from '@mcprt/tui';

import { InProcessTransport } from '../../packages/cli/src/inProcess.js';
import { makeHome, waitFor } from '../helpers/fixtures.js';

export interface TuiUnderTest {
  /** The mcprt home holding config.toml (and credentials). */
  readonly home: string;
  readonly controller: TuiController;
  readonly client: McprtClient;
  frame(): string;
  /** Type `text` and press Enter. */
  run(text: string): Promise<void>;
  press(...keys: string[]): Promise<void>;
  waitForFrame(
    check: (frame: string) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  close(): Promise<void>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startTui(
  configToml: string,
  columns: number,
  options: { readonly view?: string; readonly apps?: AppHost } = {},
): Promise<TuiUnderTest> {
  const home = makeHome(configToml);
  const runtime = Runtime.load({ home });
  const server = new AppServer({ runtime, home, log: () => {} });
  const client = await McprtClient.create(new InProcessTransport(server));
  const controller = new TuiController(client, {
    connectionLabel: 'in-process app-server',
    ...options,
  });
  const app = render(h(App, { controller, columns }));
  await controller.start();
  const frame = () => stripVTControlCharacters(app.lastFrame() ?? '');
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      app.stdin.write(key);
      await pause(20);
    }
  };
  return {
    home,
    controller,
    client,
    frame,
    press,
    run: (text) => press(text, '\r'),
    waitForFrame: (check, what, timeoutMs = 20_000) =>
      waitFor(() => (check(frame()) ? frame() : undefined), timeoutMs, what),
    close: async () => {
      app.unmount();
      controller.close();
      await client.close();
      await server.close();
    },
  };
}
