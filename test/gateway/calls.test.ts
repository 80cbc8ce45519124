/**
 * Calls through `mcprt serve` over stdio, in both eras: progress passes through, a cancelled
 * call reaches the underlying server as `notifications/cancelled`, a registration's tool timeout
 * is honoured, results are the server's own (structured content, images), tool-list changes of
 * an underlying server reach the client (`list_changed` on 2025, `subscriptions/listen` on
 * 2026-07-28), prompts and resource templates are served per scope, and every call is recorded in
 * the history with its environment.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  ECHO_SERVER,
  echoServer,
  EVERYTHING_SERVER,
  makeHome,
  NODE,
  shExecEnvironment,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import type { Era, GatewayClient } from './helpers.js';
import { CLI, stdioGateway, stdioServer, texts } from './helpers.js';

const scratch = tempDir('mcprt-gw-calls-');
const cancelLog = join(scratch, 'cancelled.log');
const cwd = tempDir('mcprt-gw-calls-cwd-');
const home = makeHome(
  stdioServer('mcp_servers.everything', EVERYTHING_SERVER) +
    shExecEnvironment('a', cwd) +
    stdioServer('environments.a.mcp_servers.shared', ECHO_SERVER, [
      '--name',
      'shared-a',
      '--cancel-log',
      cancelLog,
    ]) +
    shExecEnvironment('b', cwd) +
    echoServer('environments.b.mcp_servers.shared', 'shared-b', 'tool_timeout_sec = 1'),
);

describe.each<Era>(['legacy', 'auto'])('calls, %s era', (era) => {
  let gateway: GatewayClient;
  const toolLists: string[][] = [];

  beforeAll(async () => {
    gateway = await stdioGateway(home, era, [], {
      onToolsChanged: (names) => toolLists.push(names),
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('passes progress through, in order, with the server’s messages', async () => {
    const seen: { progress: number; total?: number | undefined; message?: string | undefined }[] =
      [];
    const result = await gateway.client.callTool(
      // Steps well apart: the MCP SDK client runs notification handlers a microtask after a
      // response that arrives in the same read, so a progress sent right before the result can
      // be dropped by any client under load (at the runtime's hop and at this test's).
      { name: 'a__shared__progress', arguments: { steps: 3, interval: 150 } },
      { onprogress: (p) => seen.push(p) },
    );
    expect(texts(result)).toEqual(['shared-a did 3 steps']);
    expect(seen).toEqual(
      [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `shared-a step ${i}` })),
    );
  });

  it('cancelling a call cancels it at the underlying server', async () => {
    const before = existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '';
    const controller = new AbortController();
    const call = gateway.client.callTool(
      { name: 'a__shared__sleep', arguments: { ms: 20_000 } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error('user cancelled')), 300);
    await expect(call).rejects.toThrow();
    const line = await waitFor(
      () => {
        const text = existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '';
        return text.length > before.length ? text.slice(before.length) : undefined;
      },
      10_000,
      'the cancellation to reach shared@a',
    );
    expect(line).toMatch(/^shared-a cancelled after \d+ ms/);
    // The gateway still serves.
    const ok = await gateway.client.callTool({
      name: 'a__shared__echo',
      arguments: { message: 'after' },
    });
    expect(texts(ok)).toEqual(['shared-a: after']);
  });

  it("honours the registration's tool timeout and says so as a tool error", async () => {
    const started = Date.now();
    const result = await gateway.client.callTool({
      name: 'b__shared__sleep',
      arguments: { ms: 10_000 },
    });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/shared@b.*timed out/i);
  });

  it('returns results unchanged: structured content, images, resource links', async () => {
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    await direct.connect(
      new StdioClientTransport({ command: NODE, args: [EVERYTHING_SERVER], stderr: 'ignore' }),
    );
    try {
      for (const [name, args] of [
        ['get-sum', { a: 2, b: 40 }],
        ['get-tiny-image', {}],
        ['get-resource-links', { count: 2 }],
        ['get-annotated-message', { messageType: 'error', includeImage: true }],
      ] as const) {
        const through = await gateway.client.callTool({
          name: `everything__${name.replaceAll('-', '_')}`,
          arguments: args,
        });
        const own = await direct.callTool({ name, arguments: args });
        expect({ ...through, _meta: undefined }, name).toEqual({ ...own, _meta: undefined });
      }
      const structured = await gateway.client.callTool({
        name: 'everything__get_structured_content',
        arguments: { location: 'New York' },
      });
      expect(structured.structuredContent).toEqual(JSON.parse(texts(structured)[0]!));
    } finally {
      await direct.close();
    }
  });

  it('tells the client when an underlying server’s tools change', async () => {
    const tool = `fresh_${era}`;
    await gateway.client.callTool({ name: 'a__shared__add_tool', arguments: { tool } });
    const names = await waitFor(
      () => toolLists.find((list) => list.includes(`a__shared__${tool}`)),
      10_000,
      `a tool-list change naming a__shared__${tool}`,
    );
    expect(names).toContain('b__shared__echo');
    const result = await gateway.client.callTool({ name: `a__shared__${tool}` });
    expect(texts(result)).toEqual([tool]);
  });

  it('serves prompts and resource templates under names and URIs of their scope', async () => {
    const { prompts } = await gateway.client.listPrompts();
    const args = prompts.find((p) => p.name === 'everything__args_prompt');
    expect(args?.title).toBe('Arguments Prompt (everything)');
    expect(args?._meta?.['mcprt/registration']).toMatchObject({ prompt: 'args-prompt' });
    const got = await gateway.client.getPrompt({
      name: 'everything__args_prompt',
      arguments: { city: 'Lyon' },
    });
    expect(JSON.stringify(got.messages)).toContain('Lyon');

    const { resourceTemplates } = await gateway.client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.uriTemplate.includes('dynamic/text'));
    expect(template?.uriTemplate).toBe(
      'mcprt://thread/everything/demo://resource/dynamic/text/{resourceId}',
    );
    const uri = template!.uriTemplate.replace('{resourceId}', '3');
    const read = await gateway.client.readResource({ uri });
    expect(read.contents[0]?.uri).toBe(uri);
    expect(JSON.stringify(read.contents[0])).toContain('3');
    await expect(gateway.client.getPrompt({ name: 'nope__prompt' })).rejects.toThrow(
      /Unknown prompt: nope__prompt/,
    );
  });

  it('records every call in the history with its environment', async () => {
    await gateway.client.callTool({ name: 'b__shared__echo', arguments: { message: `h-${era}` } });
    const history = JSON.parse(
      execFileSync(NODE, [CLI, '--home', home, 'history', '--json', '--limit', '100'], {
        encoding: 'utf8',
      }),
    ) as {
      data: {
        server: string;
        environmentId: string | null;
        tool: string;
        arguments: unknown;
        status: string;
      }[];
    };
    const echo = history.data.find(
      (r) =>
        r.tool === 'echo' &&
        JSON.stringify(r.arguments) === JSON.stringify({ message: `h-${era}` }),
    );
    expect(echo).toMatchObject({ server: 'shared', environmentId: 'b', status: 'completed' });
    expect(history.data.some((r) => r.server === 'everything' && r.environmentId === null)).toBe(
      true,
    );
  });
});
