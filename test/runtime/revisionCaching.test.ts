// Cache metadata and change notifications on the 2026-07-28 revision, against the modern
// fixture over stdio and HTTP, counting the requests the server received: a live listing within
// its `ttlMs` is served from the SDK's response cache (no request), a stale one is fetched; tools
// listed with a `ttlMs` are listed again once it has passed and the runtime needs them; a tool
// added at run time reaches the inventory through `subscriptions/listen`, also after the server
// dropped the stream (reopened with backoff).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';

import { arr, FIXTURES, NODE, q, text, waitFor } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const load = useRuntimes();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** The config of one modern fixture named `name` over `transport` (HTTP: started here). */
async function server(
  transport: 'stdio' | 'http',
  name: string,
  flags: readonly string[],
): Promise<string> {
  const args = [MODERN, '--name', name, ...flags];
  if (transport === 'stdio')
    return `[mcp_servers.${name}]\ncommand = ${q(NODE)}\nargs = ${arr(args)}\nstartup_timeout_sec = 10\n`;
  const child = spawn(NODE, [...args, '--transport', 'http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<string>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    }),
  );
  return `[mcp_servers.${name}]\nurl = ${q(`http://127.0.0.1:${port}/mcp`)}\nstartup_timeout_sec = 10\n`;
}

async function calls(session: Session, name: string): Promise<Record<string, number>> {
  return JSON.parse(text(await session.callTool({ server: name, tool: 'calls' })));
}

const toolNames = (session: Session, name: string) => session.status(name).tools.map((t) => t.name);

for (const transport of ['stdio', 'http'] as const) {
  describe(`2026-07-28 over ${transport}`, () => {
    it('serves a live listing within its ttlMs from the cache and fetches a stale one', async () => {
      const runtime = load(
        (await server(transport, 'cached', ['--ttl-ms', '600000'])) +
          (await server(transport, 'uncached', [])),
      );
      const session = runtime.startSession();
      await session.ready();
      for (const name of ['cached', 'uncached']) {
        expect(session.status(name).protocolVersion, name).toBe('2026-07-28');
        expect((await calls(session, name))['resources/list'], name).toBe(1);
        for (let i = 0; i < 3; i++) {
          const listing = await session.listResources({ server: name });
          expect(listing.errors).toEqual([]);
          expect(listing.data.map((d) => d.scope.name)).toEqual([name]);
          expect(listing.data[0]?.items).toEqual(session.status(name).resources);
        }
      }
      // ttlMs 600000: the startup listing serves all three; ttlMs 0: each one asks the server.
      expect((await calls(session, 'cached'))['resources/list']).toBe(1);
      expect((await calls(session, 'uncached'))['resources/list']).toBe(4);
    });

    it('lists tools again once their ttlMs has passed and they are needed, not before', async () => {
      const runtime = load(await server(transport, 'brief', ['--ttl-ms', '4000']));
      const session = runtime.startSession();
      await session.ready();
      session.tools();
      expect((await calls(session, 'brief'))['tools/list']).toBe(1);
      await new Promise((r) => setTimeout(r, 4300));
      expect((await calls(session, 'brief'))['tools/list']).toBe(1);
      session.tools(); // needed after the ttl: listed again in the background
      let listed = 1;
      for (let i = 0; i < 100 && listed === 1; i++) {
        await new Promise((r) => setTimeout(r, 50));
        listed = (await calls(session, 'brief'))['tools/list'] ?? 0;
      }
      expect(listed).toBe(2);
    });

    it('follows list_changed through subscriptions/listen, also after the stream dropped', async () => {
      const runtime = load(await server(transport, 'live', []));
      const changed: string[] = [];
      const session = runtime.startSession();
      session.on('inventoryChanged', ({ scope }) => changed.push(scope.name));
      await session.ready();
      expect((await calls(session, 'live'))['subscriptions/listen']).toBe(1);
      await session.callTool({ server: 'live', tool: 'add_tool', arguments: { name: 'first' } });
      await waitFor(() => toolNames(session, 'live').includes('first'), 10_000, 'tool first');
      expect(changed).toContain('live');

      // The server ends the stream without a graceful result: it is reopened (and the lists
      // taken again), and later changes arrive on the new stream.
      const dropped = await session.callTool({ server: 'live', tool: 'drop_listen' });
      expect(text(dropped)).toBe('dropped 1');
      let listens = 1;
      for (let i = 0; i < 200 && listens < 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
        listens = (await calls(session, 'live'))['subscriptions/listen'] ?? 0;
      }
      expect(listens).toBe(2);
      await session.callTool({ server: 'live', tool: 'add_tool', arguments: { name: 'second' } });
      await waitFor(() => toolNames(session, 'live').includes('second'), 10_000, 'tool second');
      expect(session.status('live').connectionStatus).toBe('connected');
    });
  });
}
