/**
 * `mcprt serve` against the raw MCP SDK client, in both eras (the default 2025 handshake and
 * `versionNegotiation: auto`, which negotiates 2026-07-28) over stdio and over HTTP, with a server
 * named `shared` in two exec environments and an ssh environment (a real sshd on 127.0.0.1): one
 * client lists and calls every `shared` as separate tools, reads the same URI from each as
 * separate resources, and answers elicitations of all three asking at once — each answer reaching
 * the server that asked.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, makeHome, tempDir } from '../helpers/fixtures.js';
import { Sshd } from '../helpers/sshd.js';
import type { Era, GatewayClient, HttpGateway } from './helpers.js';
import { httpClient, httpGateway, stdioGateway, texts, twoExecEnvironments } from './helpers.js';

const ENVS = ['a', 'b', 'c'] as const;
let sshd: Sshd;
let home: string;

beforeAll(async () => {
  sshd = await Sshd.start([{ home: tempDir('mcprt-gw-ssh-home-') }]);
  home = makeHome(
    twoExecEnvironments() +
      sshd.environmentToml('c', 0, { cwd: tempDir('mcprt-gw-ssh-cwd-') }) +
      echoServer('environments.c.mcp_servers.shared', 'shared-c'),
  );
});
afterAll(async () => {
  await sshd?.close();
});

const cases: [transport: 'stdio' | 'http', era: Era][] = [
  ['stdio', 'legacy'],
  ['stdio', 'auto'],
  ['http', 'legacy'],
  ['http', 'auto'],
];

describe.each(cases)('over %s, %s era', (transport, era) => {
  let gateway: GatewayClient;
  let server: HttpGateway | null = null;

  beforeAll(async () => {
    if (transport === 'stdio') {
      gateway = await stdioGateway(home, era);
    } else {
      server = await httpGateway(home);
      gateway = await httpClient(server.url, era);
    }
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('negotiates the era the client asked for', () => {
    const version = gateway.client.getNegotiatedProtocolVersion();
    expect(version).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
    const caps = gateway.client.getServerCapabilities();
    expect(caps?.experimental).toEqual({
      'codex/sandbox-state': {},
      'codex/sandbox-state-meta': {},
    });
    expect(caps?.tools?.listChanged).toBe(true);
  });

  it('lists `shared` of every environment as separate tools naming server@env', async () => {
    const { tools } = await gateway.client.listTools();
    for (const env of ENVS) {
      const echo = tools.find((t) => t.name === `${env}__shared__echo`);
      expect(echo, `${env}__shared__echo in ${tools.map((t) => t.name).join(', ')}`).toBeDefined();
      expect(echo!.title).toBe(`echo (shared@${env})`);
      expect(echo!.description).toBe(`[shared@${env}] Echo the message back`);
      expect(echo!._meta?.['mcprt/registration']).toEqual({
        server: 'shared',
        environmentId: env,
        label: `shared@${env}`,
        tool: 'echo',
      });
      expect(echo!.inputSchema).toMatchObject({
        type: 'object',
        properties: { message: { type: 'string' } },
      });
    }
    expect(tools.every((t) => t.name.length <= 64 && /^[A-Za-z0-9_]+$/.test(t.name))).toBe(true);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it("calls each one and returns that server's result unchanged", async () => {
    for (const env of ENVS) {
      const result = await gateway.client.callTool({
        name: `${env}__shared__echo`,
        arguments: { message: 'hi' },
      });
      expect(result.content).toEqual([{ type: 'text', text: `shared-${env}: hi` }]);
      expect(result.isError).toBeUndefined();
      const failed = await gateway.client.callTool({ name: `${env}__shared__fail` });
      expect(failed.content).toEqual([{ type: 'text', text: `shared-${env} failed on purpose` }]);
      expect(failed.isError).toBe(true);
    }
  });

  it('lists the same URI of every environment as separate resources, and reads each', async () => {
    const { resources } = await gateway.client.listResources();
    const greetings = resources.filter((r) => r.uri.endsWith('/fixture://greeting'));
    expect(greetings.map((r) => r.uri).sort()).toEqual(
      ENVS.map((env) => `mcprt://env/${env}/shared/fixture://greeting`),
    );
    for (const env of ENVS) {
      const uri = `mcprt://env/${env}/shared/fixture://greeting`;
      const listed = greetings.find((r) => r.uri === uri)!;
      expect(listed._meta?.['mcprt/registration']).toMatchObject({
        label: `shared@${env}`,
        uri: 'fixture://greeting',
      });
      const read = await gateway.client.readResource({ uri });
      expect(read.contents).toEqual([{ uri, text: `hello from shared-${env}` }]);
    }
    // The server's own URI is ambiguous here: the error says where to read it.
    await expect(gateway.client.readResource({ uri: 'fixture://greeting' })).rejects.toThrow(
      /served by `shared@a`, `shared@b`, `shared@c`/,
    );
  });

  it('relays elicitations of three same-named servers asking at once; each answer reaches its asker', async () => {
    const results = await Promise.all(
      ENVS.map((env) => gateway.client.callTool({ name: `${env}__shared__ask` })),
    );
    results.forEach((result, i) => {
      const reply = JSON.parse(texts(result)[0]!) as { action: string; content: unknown };
      // The client answered `for <label from the message>`; the form default (count) was applied.
      expect(reply).toEqual({
        action: 'accept',
        content: { answer: `for shared@${ENVS[i]}`, count: 7 },
      });
    });
  });
});
