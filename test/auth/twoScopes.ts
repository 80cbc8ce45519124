/**
 * The app-server set-up shared by the OAuth app-server tests: two real authorization servers,
 * one protected MCP server behind each, registered as `shared` in environments `a` and `b` (plus
 * a stdio `local-tool`), an app-server on that home, and a thread selecting both environments.
 */

import { startAuthServer } from '../fixtures/auth/authServer.js';
import type { AuthServer } from '../fixtures/auth/authServer.js';
import { startProtectedServer } from '../fixtures/auth/protectedServer.js';
import type { ProtectedServer } from '../fixtures/auth/protectedServer.js';
import { makeHome } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { directEnvironment, httpServerTable } from './helpers.js';

export interface TwoScopes {
  readonly asA: AuthServer;
  readonly asB: AuthServer;
  readonly rsA: ProtectedServer;
  readonly rsB: ProtectedServer;
  readonly home: string;
  readonly server: RawAppServer;
  readonly threadId: string;
}

export async function startTwoScopes(): Promise<TwoScopes> {
  const asA = await startAuthServer();
  const asB = await startAuthServer();
  const rsA = await startProtectedServer(asA, { name: 'shared-a' });
  const rsB = await startProtectedServer(asB, { name: 'shared-b' });
  const home = makeHome(
    [
      'mcp_oauth_credentials_store = "file"',
      directEnvironment('a'),
      directEnvironment('b'),
      httpServerTable('environments.a.mcp_servers.shared', rsA.url),
      httpServerTable('environments.b.mcp_servers.shared', rsB.url),
      '[mcp_servers.local-tool]\ncommand = "true"\n',
    ].join('\n'),
  );
  const server = RawAppServer.start(home);
  await server.initialize();
  const started = await server.call<{ thread: { id: string } }>('thread/start', {
    environments: [
      { environmentId: 'a', cwd: home },
      { environmentId: 'b', cwd: home },
    ],
  });
  return { asA, asB, rsA, rsB, home, server, threadId: started.thread.id };
}

export async function stopTwoScopes(s: Partial<TwoScopes> | undefined): Promise<void> {
  await s?.server?.close();
  await Promise.all([s?.rsA?.stop(), s?.rsB?.stop(), s?.asA?.stop(), s?.asB?.stop()]);
}
