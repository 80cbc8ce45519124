/**
 * `[[serve.policies]]` (issue "a gateway for a team", point 3): callers of `mcprt serve` over
 * HTTP get the view and environments the first matching policy grants, and cannot list or call
 * anything else — by name, through tool search, or by resource URI; a refused call is a clear
 * MCP error and a history record naming the caller. The gateway, its HTTP listener, the
 * underlying servers (echo fixtures in two exec environments and one thread-wide) and the SDK
 * clients are real; callers are told apart by a test authenticator — the listener's
 * `HttpAuthenticator` seam — mapping fixed bearer strings to callers (the OAuth authenticator
 * behind the same seam has tests of its own).
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway, listenGatewayHttp } from '@mcprt/gateway';
import type { Caller, GatewayHttpListener, HttpAuthenticator } from '@mcprt/gateway';
import type { Runtime } from '@mcprt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, tempDir } from '../helpers/fixtures.js';
import { recoveredHistory } from '../helpers/history.js';
import { Runtime as RuntimeClass } from '@mcprt/runtime';
import { makeHome } from '../helpers/fixtures.js';
import { texts, twoExecEnvironments } from './helpers.js';

const CALLERS: Record<string, Caller> = {
  alice: { kind: 'oauth', subject: 'alice', clientId: 'cli-1', scopes: [], groups: [] },
  reader: { kind: 'oauth', subject: 'rita', clientId: 'cli-2', scopes: [], groups: ['readers'] },
  carol: { kind: 'oauth', subject: 'carol', clientId: 'cli-3', scopes: [], groups: [] },
  bob: { kind: 'oauth', subject: 'bob', clientId: 'cli-4', scopes: [], groups: ['nobody'] },
};

/** `Bearer <name>` is the caller of that name (a seam of ours, standing in for JWT checks). */
const byName: HttpAuthenticator = {
  authenticate: async (authorization) => {
    const caller = CALLERS[authorization?.replace(/^Bearer /, '') ?? ''];
    return caller !== undefined
      ? { ok: true, caller }
      : { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer' }, body: 'no\n' };
  },
  publicDocument: () => null,
};

const CONFIG =
  twoExecEnvironments() +
  echoServer('mcp_servers.docs', 'docs') +
  `
[views.readonly]
include = ["*/*/echo"]

[views.finder]
tool_search = "always"

[[serve.policies]]
name = "a-only"
subjects = ["alice"]
environments = ["a"]

[[serve.policies]]
name = "readers"
groups = ["readers"]
view = "readonly"

[[serve.policies]]
name = "finders"
subjects = ["car*"]
view = "finder"
environments = ["b"]
`;

let home: string;
let runtime: Runtime;
let gateway: Gateway;
let listener: GatewayHttpListener;
const clients: Client[] = [];

beforeAll(async () => {
  home = makeHome(CONFIG);
  runtime = RuntimeClass.load({ home, processEnv: process.env });
  gateway = new Gateway({ runtime, cwd: tempDir(), log: () => undefined });
  listener = await listenGatewayHttp(gateway, {
    host: '127.0.0.1',
    port: 0,
    token: 'unused-static-token-0123456789',
    authenticator: byName,
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await listener?.close();
  await gateway?.close();
  await runtime?.close();
});

async function as(name: string): Promise<Client> {
  const client = new Client({ name: `as-${name}`, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(listener.url), {
      requestInit: { headers: { authorization: `Bearer ${name}` } },
    }),
  );
  clients.push(client);
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

describe('a caller limited to one environment', () => {
  it('lists only that environment’s tools, resources and status', async () => {
    const alice = await as('alice');
    const tools = await names(alice);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((n) => n.startsWith('a__shared__'))).toBe(true);
    const resources = (await alice.listResources()).resources.map((r) => r.name);
    expect(resources.filter((n) => n !== 'mcprt-status')).toEqual(['greeting']);
    const status = await alice.readResource({ uri: 'mcprt://gateway/status' });
    const servers = JSON.parse((status.contents[0] as { text: string }).text).servers as {
      label: string;
    }[];
    expect(servers.map((s) => s.label)).toEqual(['shared@a']);
  });

  it('cannot call a tool of another environment by name: a clear error and a refused record', async () => {
    const alice = await as('alice');
    for (const name of ['b__shared__echo', 'docs__echo']) {
      await expect(alice.callTool({ name, arguments: { message: 'hi' } })).rejects.toThrow(
        `tool \`${name}\` is not available to alice (client cli-1) (policy \`a-only\`)`,
      );
    }
    const ok = await alice.callTool({ name: 'a__shared__echo', arguments: { message: 'hi' } });
    expect(texts(ok)).toEqual(['shared-a: hi']);
  });

  it('cannot read another environment’s resource, by wrapped or by original URI', async () => {
    const alice = await as('alice');
    const foreign = 'mcprt://env/b/shared/fixture://greeting';
    // The reader may read it (its view spans every environment); alice may not.
    const read = await (await as('reader')).readResource({ uri: foreign });
    expect((read.contents[0] as { text: string }).text).toBe('hello from shared-b');
    await expect(alice.readResource({ uri: foreign })).rejects.toThrow(/not found/);
    // The original URI is served by a and b; alice sees a's only, so it is not ambiguous.
    const own = await alice.readResource({ uri: 'fixture://greeting' });
    expect((own.contents[0] as { text: string }).text).toBe('hello from shared-a');
  });
});

describe('a caller limited to one view', () => {
  it('lists and calls only the view’s tools', async () => {
    const reader = await as('reader');
    expect(await names(reader)).toEqual(['a__shared__echo', 'b__shared__echo', 'docs__echo']);
    await expect(reader.callTool({ name: 'a__shared__whoami' })).rejects.toThrow(
      /not in view `readonly`/,
    );
  });
});

describe('a caller with tool search over one environment', () => {
  it('finds and calls only that environment’s tools', async () => {
    const carol = await as('carol');
    expect(await names(carol)).toEqual(['call_tool', 'get_tool_details', 'search_tools']);
    const found = await carol.callTool({ name: 'search_tools', arguments: { query: 'echo' } });
    const hits = (found.structuredContent as { tools: { name: string; environmentId: string }[] })
      .tools;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.environmentId === 'b')).toBe(true);
    const details = await carol.callTool({
      name: 'get_tool_details',
      arguments: { names: ['a__shared__echo'] },
    });
    expect(JSON.stringify(details.structuredContent)).not.toContain('shared-a');
    const hidden = await carol.callTool({
      name: 'call_tool',
      arguments: { name: 'a__shared__echo', arguments: { message: 'x' } },
    });
    expect(hidden.isError).toBe(true);
    expect(texts(hidden).join('')).toContain('is not available to carol');
    const mine = await carol.callTool({
      name: 'call_tool',
      arguments: { name: 'b__shared__echo', arguments: { message: 'x' } },
    });
    expect(texts(mine)).toEqual(['shared-b: x']);
  });
});

describe('a caller no policy matches', () => {
  it('is refused everything, saying why', async () => {
    const bob = await as('bob');
    await expect(bob.listTools()).rejects.toThrow(/bob/);
    await expect(
      bob.callTool({ name: 'a__shared__echo', arguments: { message: 'x' } }),
    ).rejects.toThrow(/bob/);
    await expect(bob.listResources()).rejects.toThrow(/bob/);
  });
});

describe('the history', () => {
  it('records the caller of every call, refused ones too', async () => {
    await listener.close();
    await gateway.close();
    await runtime.close();
    const rows = recoveredHistory<{
      server: string;
      environment_id: string | null;
      status: string;
      caller_subject: string | null;
      caller_client_id: string | null;
    }>(home, 'server, environment_id, status, caller_subject, caller_client_id');
    expect(rows).toContainEqual({
      server: 'shared',
      environment_id: 'b',
      status: 'refused',
      caller_subject: 'alice',
      caller_client_id: 'cli-1',
    });
    expect(rows).toContainEqual({
      server: 'shared',
      environment_id: 'a',
      status: 'completed',
      caller_subject: 'alice',
      caller_client_id: 'cli-1',
    });
    expect(rows).toContainEqual({
      server: 'shared',
      environment_id: 'b',
      status: 'completed',
      caller_subject: 'carol',
      caller_client_id: 'cli-3',
    });
  });
});
