/**
 * The `tools/call` fast path of `mcprt serve` over stdio (docs/adr/0020), at the wire: once a
 * 2025 connection is initialized, calls are answered by the gateway's own code, everything else
 * by the MCP SDK server. The SDK's answers are the reference: a connection that skipped
 * `initialize` is served by the SDK alone (the fast path opens with the handshake), so the same
 * requests on both connections must get the same answers. The fast path's responses are written
 * `{"jsonrpc":"2.0","id":…` first (the SDK writes `{"result":…`), which is how these tests know a
 * call really took it.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ECHO_SERVER, EVERYTHING_SERVER, makeHome, tempDir, waitFor } from '../helpers/fixtures.js';
import { stdioGateway, stdioServer, texts } from './helpers.js';
import type { Json } from './rawClient.js';
import { RawGateway } from './rawClient.js';

const scratch = tempDir('mcprt-gw-fast-');
const cancelLog = join(scratch, 'cancelled.log');
const home = makeHome(
  stdioServer('mcp_servers.shared', ECHO_SERVER, ['--name', 'shared', '--cancel-log', cancelLog]) +
    stdioServer('mcp_servers.everything', EVERYTHING_SERVER),
);

const fastPathAnswer = (raw: string) => raw.startsWith('{"jsonrpc":"2.0","id":');
const result = (message: Json) => message['result'] as Json;

describe('the tools/call fast path over stdio (2025)', () => {
  let gateway: RawGateway;

  beforeAll(async () => {
    gateway = await RawGateway.initialized(home);
    await gateway.toolsListed(['shared__echo', 'everything__get_resource_reference']);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers every request of the same shape as the SDK server does', async () => {
    const cases: (Json | undefined)[] = [
      { name: 'shared__echo', arguments: { message: 'hi' } },
      { name: 'shared__fail' },
      { name: 'nope__tool' },
      { name: 'shared__echo', arguments: [1, 2] },
      { name: 'shared__echo', arguments: 'text' },
      { name: 7 },
      undefined,
      { name: 'shared__echo', arguments: { message: 3 } },
      { name: 'shared__echo', arguments: { message: 'hi' }, extra: true },
      // An embedded resource: the fast path hands the result to the SDK to check and send.
      { name: 'everything__get_resource_reference', arguments: {} },
    ];
    const sdkOnly = RawGateway.start(home);
    try {
      const asked = async (client: RawGateway, tag: string) => {
        const out: Json[] = [];
        for (const [i, params] of cases.entries()) {
          const answer = await client.request(`${tag}${i}`, 'tools/call', params);
          // The everything server's resource text names the second it was made.
          const stable = JSON.stringify({ ...answer, id: i }).replace(
            /created at [^"]*/g,
            'created at T',
          );
          out.push(JSON.parse(stable) as Json);
        }
        return out;
      };
      const reference = await asked(sdkOnly, 'sdk');
      const fast = await asked(gateway, 'fast');
      expect(fast).toEqual(reference);
      // The reference really is the SDK's, and the plain calls really took the fast path.
      expect(reference[2]).toMatchObject({
        error: { code: -32602, message: 'Unknown tool: nope__tool' },
      });
      expect(String((reference[3]!['error'] as Json)['message'])).toMatch(
        /^Invalid tools\/call request:.*expected record, received array/s,
      );
      expect(fastPathAnswer((await gateway.answer('fast0')).raw)).toBe(true);
      expect(fastPathAnswer((await sdkOnly.answer('sdk0')).raw)).toBe(false);
      expect(fastPathAnswer((await gateway.answer('fast9')).raw)).toBe(false);
      const blocks = result(fast[9]!)['content'] as Json[];
      expect(blocks.some((block) => block['type'] === 'resource')).toBe(true);
    } finally {
      await sdkOnly.close();
    }
  });

  it('serves a call while lists, pings and notifications go to the SDK around it', async () => {
    gateway.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { name: 'shared__sleep', arguments: { ms: 400 } },
    });
    gateway.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
    gateway.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    gateway.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
    gateway.send({
      jsonrpc: '2.0',
      id: 'quick',
      method: 'tools/call',
      params: { name: 'shared__echo', arguments: { message: 'between' } },
    });
    gateway.send({ jsonrpc: '2.0', id: 'prompts', method: 'prompts/list' });
    const slow = await gateway.answer('slow');
    expect(texts(result(slow.message))).toEqual(['slept 400']);
    expect(fastPathAnswer(slow.raw)).toBe(true);
    const quick = await gateway.answer('quick');
    expect(texts(result(quick.message))).toEqual(['shared: between']);
    expect(fastPathAnswer(quick.raw)).toBe(true);
    const tools = result((await gateway.answer('list')).message)['tools'] as { name: string }[];
    expect(tools.map((t) => t.name)).toContain('shared__echo');
    expect(result((await gateway.answer('ping')).message)).toEqual({});
    expect(result((await gateway.answer('prompts')).message)).toHaveProperty('prompts');
    // Everything but the slow call was answered before it.
    const order = gateway.received.map((r) => r.message['id']);
    for (const id of ['list', 'ping', 'quick', 'prompts']) {
      expect(order.indexOf(id)).toBeLessThan(order.indexOf('slow'));
    }
  });

  it('forwards progress on the client’s token, before the result', async () => {
    gateway.send({
      jsonrpc: '2.0',
      id: 'prog',
      method: 'tools/call',
      params: {
        name: 'shared__progress',
        arguments: { steps: 3, interval: 60 },
        _meta: { progressToken: 'tok-1' },
      },
    });
    const answer = await gateway.answer('prog');
    expect(fastPathAnswer(answer.raw)).toBe(true);
    const progress = gateway.received
      .filter((r) => r.message['method'] === 'notifications/progress')
      .map((r) => r.message['params'] as Json)
      .filter((p) => p['progressToken'] === 'tok-1');
    expect(progress).toEqual(
      [1, 2, 3].map((i) => ({
        progressToken: 'tok-1',
        progress: i,
        total: 3,
        message: `shared step ${i}`,
      })),
    );
    const at = (r: { raw: string }) => gateway.received.findIndex((x) => x.raw === r.raw);
    expect(at(answer)).toBeGreaterThan(
      Math.max(
        ...gateway.received.flatMap((r, i) =>
          (r.message['params'] as Json | undefined)?.['progressToken'] === 'tok-1' ? [i] : [],
        ),
      ),
    );
  });

  it('a client’s cancellation reaches the underlying server, and the call is not answered', async () => {
    const before = existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '';
    gateway.send({
      jsonrpc: '2.0',
      id: 'doomed',
      method: 'tools/call',
      params: { name: 'shared__sleep', arguments: { ms: 20_000 } },
    });
    await new Promise((r) => setTimeout(r, 300));
    gateway.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'doomed', reason: 'the user gave up' },
    });
    const logged = await waitFor(
      () => {
        const now = existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '';
        return now.length > before.length ? now.slice(before.length) : undefined;
      },
      10_000,
      'the underlying server to log the cancellation',
    );
    expect(logged).toMatch(/^shared cancelled after \d+ ms/);
    // The connection goes on; the cancelled call never gets an answer.
    const after = await gateway.request('after-cancel', 'tools/call', {
      name: 'shared__echo',
      arguments: { message: 'still here' },
    });
    expect(texts(result(after))).toEqual(['shared: still here']);
    await new Promise((r) => setTimeout(r, 200));
    expect(gateway.received.some((r) => r.message['id'] === 'doomed')).toBe(false);
  });

  it('a cancellation without a reason cancels the call at the server with an AbortError', async () => {
    const before = existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '';
    gateway.send({
      jsonrpc: '2.0',
      id: 'doomed-quietly',
      method: 'tools/call',
      params: { name: 'shared__sleep', arguments: { ms: 20_000 } },
    });
    await new Promise((r) => setTimeout(r, 300));
    gateway.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'doomed-quietly' },
    });
    const logged = await waitFor(
      () => {
        const now = existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '';
        return now.length > before.length ? now.slice(before.length) : undefined;
      },
      10_000,
      'the underlying server to log the cancellation',
    );
    // The reason an AbortController gives when aborted without one, as the server hears it.
    expect(logged).toMatch(
      /^shared cancelled after \d+ ms: .*AbortError: This operation was aborted/,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(gateway.received.some((r) => r.message['id'] === 'doomed-quietly')).toBe(false);
  });

  it('strips spoofed codex/sandbox-* keys and the progress token from what reaches the server', async () => {
    const answer = await gateway.request('meta', 'tools/call', {
      name: 'shared__meta',
      _meta: {
        'codex/sandbox-state-spoof': { sandboxPolicy: { type: 'danger-full-access' } },
        'codex/sandbox-launcher': { codexExecutable: '/tmp/not-codex' },
        progressToken: 'p-meta',
        'trace/id': 'kept',
      },
    });
    const seen = JSON.parse(texts(result(answer))[0]!) as Json;
    expect(Object.keys(seen).filter((k) => k.startsWith('codex/'))).toEqual([]);
    expect(seen['trace/id']).toBe('kept');
    expect(seen['progressToken']).not.toBe('p-meta');
  });

  it('skips a line that is not JSON and drops one that is not JSON-RPC, like the SDK; a line split across writes is one message', async () => {
    gateway.send('{"jsonrpc":"2.0","id":"broken","method":"tools/call",\n');
    gateway.send('[1, 2, 3]\n');
    gateway.send('{"jsonrpc":"2.0","id":"split","method":"tools/c');
    await new Promise((r) => setTimeout(r, 50));
    gateway.send('all","params":{"name":"shared__echo","arguments":{"message":"joined"}}}\r\n');
    const split = await gateway.answer('split');
    expect(texts(result(split.message))).toEqual(['shared: joined']);
    expect(fastPathAnswer(split.raw)).toBe(true);
    expect(gateway.received.some((r) => r.message['id'] === 'broken')).toBe(false);
    const later = await gateway.request('after-junk', 'ping');
    expect(later['result']).toEqual({});
  });

  it('an elicitation mid-call becomes a real elicitation/create; the answer reaches the asking server', async () => {
    gateway.send({
      jsonrpc: '2.0',
      id: 'ask-1',
      method: 'tools/call',
      params: { name: 'shared__ask' },
    });
    const asked = await gateway.next(
      (m) => m['method'] === 'elicitation/create',
      20_000,
      'an elicitation',
    );
    const params = asked.message['params'] as Json;
    expect(params['message']).toBe('[shared] shared asks');
    gateway.send({
      jsonrpc: '2.0',
      id: asked.message['id'] as string | number,
      result: { action: 'accept', content: { answer: 'forty-two' } },
    });
    const answer = await gateway.answer('ask-1');
    expect(JSON.parse(texts(result(answer.message))[0]!)).toEqual({
      action: 'accept',
      content: { answer: 'forty-two', count: 7 },
    });
  });

  it('cancelling a call while its elicitation waits cancels the call; the next one is asked anew', async () => {
    const askedBefore = gateway.received.filter(
      (r) => r.message['method'] === 'elicitation/create',
    ).length;
    gateway.send({
      jsonrpc: '2.0',
      id: 'ask-2',
      method: 'tools/call',
      params: { name: 'shared__ask' },
    });
    await waitFor(
      () =>
        gateway.received.filter((r) => r.message['method'] === 'elicitation/create').length >
        askedBefore,
      20_000,
      'the elicitation',
    );
    gateway.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'ask-2' },
    });
    await new Promise((r) => setTimeout(r, 200));
    // Had the operation lived on, this call's elicitation would be routed to it instead.
    gateway.send({
      jsonrpc: '2.0',
      id: 'ask-3',
      method: 'tools/call',
      params: { name: 'shared__ask' },
    });
    const third = await waitFor(
      () =>
        gateway.received.filter((r) => r.message['method'] === 'elicitation/create')[
          askedBefore + 1
        ],
      20_000,
      'a new elicitation',
    );
    gateway.send({
      jsonrpc: '2.0',
      id: third.message['id'] as string | number,
      result: { action: 'accept', content: { answer: 'third' } },
    });
    const answer = await gateway.answer('ask-3');
    expect(JSON.parse(texts(result(answer.message))[0]!)).toMatchObject({
      action: 'accept',
      content: { answer: 'third' },
    });
    expect(
      gateway.received.some((r) => r.message['id'] === 'ask-2' && !('method' in r.message)),
    ).toBe(false);
  });
});

describe.each(['legacy', 'auto'] as const)(
  'elicitation mid-call through the SDK client, %s era',
  (era) => {
    it('relays the question and returns the server’s answer', async () => {
      const client = await stdioGateway(home, era);
      try {
        const answer = await client.client.callTool({ name: 'shared__ask' });
        expect(JSON.parse(texts(answer)[0]!)).toEqual({
          action: 'accept',
          content: { answer: 'for shared', count: 7 },
        });
      } finally {
        await client.close();
      }
    });
  },
);

describe('an oversized line', () => {
  it('ends the connection, as the SDK transport does, and mcprt serve exits', async () => {
    const gateway = await RawGateway.initialized(home);
    const exited = gateway.exited();
    gateway.send('"' + 'x'.repeat(11 * 1024 * 1024));
    // A clean shutdown (stdin's connection ended), not a crash.
    await expect(exited).resolves.toBe(0);
  });
});
