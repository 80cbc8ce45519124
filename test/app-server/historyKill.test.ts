// History durability across kill -9 (ADR 0009, ADR 0017): a call still running when the
// app-server is killed is on disk as `inProgress`, and of several calls finishing together (one
// journal write) every one that was answered is on disk as finished. What the killed process
// left in its journal is what the next process on the home recovers into the database.
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { echoServer, makeHome, text } from '../helpers/fixtures.js';
import { journalFiles, recoveredHistory } from '../helpers/history.js';
import { RawAppServer } from '../helpers/rpcClient.js';

function rows(home: string) {
  expect(journalFiles(home)).toHaveLength(1); // the killed app-server's journal
  const recovered = recoveredHistory<{ tool: string; status: string; arguments: string }>(
    home,
    'tool, status, arguments',
  );
  expect(journalFiles(home)).toEqual([]); // replayed, then deleted
  return recovered;
}

async function startThread(home: string) {
  const server = RawAppServer.start(home);
  await server.initialize();
  const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {});
  return { server, threadId: thread.id };
}

async function kill(server: RawAppServer) {
  server.child.kill('SIGKILL');
  await new Promise((r) => server.child.once('exit', r));
}

describe('history across kill -9 of the app-server', () => {
  it('leaves a call that was still running as inProgress', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e'));
    const { server, threadId } = await startThread(home);
    void server.request('mcpServer/tool/call', {
      threadId,
      server: 'e',
      tool: 'sleep',
      arguments: { ms: 30_000 },
    });
    await server.waitFor((m) => m.method === 'item/started');
    await kill(server);
    expect(rows(home)).toEqual([
      { tool: 'sleep', status: 'inProgress', arguments: '{"ms":30000}' },
    ]);
  });

  it('keeps every answered call of a concurrent burst as finished', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e'));
    const { server, threadId } = await startThread(home);
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        server.request('mcpServer/tool/call', {
          threadId,
          server: 'e',
          tool: 'echo',
          arguments: { message: `m${i}` },
        }),
      ),
    );
    expect(replies.map((r) => text(r.result))).toEqual(
      Array.from({ length: 24 }, (_, i) => `e: m${i}`),
    );
    await kill(server);
    const stored = rows(home);
    expect(stored).toHaveLength(24);
    expect(stored.every((r) => r.status === 'completed')).toBe(true);
    expect(new Set(stored.map((r) => r.arguments)).size).toBe(24);
  });

  it('records a call the server rejects as failed before answering', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e'));
    const { server, threadId } = await startThread(home);
    const reply = await server.request('mcpServer/tool/call', {
      threadId,
      server: 'e',
      tool: 'echo',
      arguments: { message: 42 },
    });
    expect((reply.result as { isError?: boolean }).isError).toBe(true);
    await kill(server);
    expect(rows(home)).toEqual([{ tool: 'echo', status: 'failed', arguments: '{"message":42}' }]);
  });

  it('an app-server that ends normally ingests its journal into the database and deletes it', async () => {
    const home = makeHome(echoServer('mcp_servers.e', 'e'));
    const { server, threadId } = await startThread(home);
    for (const message of ['one', 'two']) {
      await server.request('mcpServer/tool/call', {
        threadId,
        server: 'e',
        tool: 'echo',
        arguments: { message },
      });
    }
    expect(journalFiles(home)).toHaveLength(1);
    expect(await server.close()).toBe(0);
    expect(journalFiles(home)).toEqual([]);
    const db = new Database(join(home, 'history.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT status, arguments FROM tool_calls ORDER BY seq').all()).toEqual([
        { status: 'completed', arguments: '{"message":"one"}' },
        { status: 'completed', arguments: '{"message":"two"}' },
      ]);
    } finally {
      db.close();
    }
  });
});
