// History durability across kill -9 with the batched writes (docs/performance.md): a call still
// running when the app-server is killed is on disk as `inProgress`, and of several calls finishing
// together (one transaction) every one that was answered is on disk as finished.
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { echoServer, makeHome, text } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';

function rows(home: string) {
  const db = new Database(join(home, 'history.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT tool, status, arguments FROM tool_calls ORDER BY seq').all() as {
      tool: string;
      status: string;
      arguments: string;
    }[];
  } finally {
    db.close();
  }
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
});
