/**
 * The `tools/call` fast path of `mcprt serve` for 2026-07-28 clients over stdio (docs/adr/0025),
 * at the wire. The SDK's answers are the reference: on a connection that changes its envelope
 * (the client's version) on every request, no envelope is ever seen twice, so the SDK answers
 * everything; on one that keeps its envelope, calls after the SDK has accepted it take the fast
 * path. The same requests must get the same answers on both. Fast-path answers are written
 * `{"jsonrpc":"2.0","id":…` first (the SDK writes `{"result":…`), which is how these tests know
 * a call really took it.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ECHO_SERVER, EVERYTHING_SERVER, makeHome, waitFor } from '../helpers/fixtures.js';
import { stdioServer, texts } from './helpers.js';
import type { Json } from './rawClient.js';
import { RawGateway } from './rawClient.js';

const home = makeHome(
  stdioServer('mcp_servers.shared', ECHO_SERVER, ['--name', 'shared']) +
    stdioServer('mcp_servers.everything', EVERYTHING_SERVER),
);

const fastPathAnswer = (raw: string) => raw.startsWith('{"jsonrpc":"2.0","id":');
const envelope = (version: string, capabilities: Json = {}): Json => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

/** A 2026-07-28 connection whose tools are all listed (its envelope: `version`). */
async function modernGateway(version: () => string): Promise<RawGateway> {
  const gateway = RawGateway.start(home);
  const discover = await gateway.request('discover', 'server/discover', {
    _meta: envelope(version()),
  });
  if (!('result' in discover)) throw new Error(`discover failed: ${JSON.stringify(discover)}`);
  let n = 0;
  await waitFor(
    async () => {
      const answer = await gateway.request(`list-${++n}`, 'tools/list', {
        _meta: envelope(version()),
      });
      const tools = ((answer['result'] as Json | undefined)?.['tools'] ?? []) as { name: string }[];
      const names = tools.map((t) => t.name);
      return names.includes('shared__echo') && names.includes('everything__get_resource_reference')
        ? true
        : undefined;
    },
    30_000,
    'every tool to be listed',
  );
  return gateway;
}

describe('the tools/call fast path over stdio (2026-07-28)', () => {
  let gateway: RawGateway;
  let sdkOnly: RawGateway;
  let fresh = 0;

  beforeAll(async () => {
    gateway = await modernGateway(() => '1.0.0');
    sdkOnly = await modernGateway(() => `0.0.${++fresh}`);
  });
  afterAll(async () => {
    await gateway?.close();
    await sdkOnly?.close();
  });

  it('answers every request of the same shape as the SDK server does', async () => {
    const cases: ((version: string) => Json | undefined)[] = [
      (v) => ({ name: 'shared__echo', arguments: { message: 'hi' }, _meta: envelope(v) }),
      (v) => ({ name: 'shared__fail', _meta: envelope(v) }),
      (v) => ({ name: 'nope__tool', _meta: envelope(v) }),
      (v) => ({ name: 'shared__echo', arguments: [1, 2], _meta: envelope(v) }),
      (v) => ({ name: 'shared__env', arguments: { key: 'MCPRT_UNSET_KEY' }, _meta: envelope(v) }),
      // Other `_meta` keys stay; the envelope never reaches the server.
      (v) => ({ name: 'shared__meta', _meta: { ...envelope(v), 'example/key': 1 } }),
      // No envelope at all: the SDK's error.
      () => ({ name: 'shared__echo', arguments: { message: 'hi' } }),
      (v) => ({ name: 'shared__echo', arguments: { message: 'hi' }, extra: 1, _meta: envelope(v) }),
      // An embedded resource: handed to the SDK to check and send.
      (v) => ({ name: 'everything__get_resource_reference', arguments: {}, _meta: envelope(v) }),
    ];
    const asked = async (client: RawGateway, tag: string, version: () => string) => {
      const out: Json[] = [];
      for (const [i, params] of cases.entries()) {
        const answer = await client.request(`${tag}${i}`, 'tools/call', params(version()));
        // The everything server's resource text names the second it was made; each gateway
        // has a thread of its own.
        const stable = JSON.stringify({ ...answer, id: i })
          .replace(/created at [^"]*/g, 'T')
          .replace(/\\"threadId\\":\\"[^\\]*\\"/g, 'THREAD');
        out.push(JSON.parse(stable) as Json);
      }
      return out;
    };
    const reference = await asked(sdkOnly, 'sdk', () => `0.0.${++fresh}`);
    const fast = await asked(gateway, 'fast', () => '1.0.0');
    expect(fast).toEqual(reference);
    // The reference really is the SDK's, and the plain calls really took the fast path.
    expect(texts(reference[0]!['result'] as Json)).toEqual(['shared: hi']);
    expect(reference[0]!['result']).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcprt' } },
    });
    expect(reference[2]).toMatchObject({ error: { message: 'Unknown tool: nope__tool' } });
    for (const i of [0, 1, 4, 5]) {
      expect(fastPathAnswer((await gateway.answer(`fast${i}`)).raw)).toBe(true);
      expect(fastPathAnswer((await sdkOnly.answer(`sdk${i}`)).raw)).toBe(false);
    }
    // The embedded resource's result was the SDK's to send (errors are the SDK's on this era:
    // the fast path declines an unknown tool and writes none).
    expect(fastPathAnswer((await gateway.answer('fast8')).raw)).toBe(false);
    const blocks = (fast[8]!['result'] as Json)['content'] as Json[];
    expect(blocks.some((block) => block['type'] === 'resource')).toBe(true);
  });

  it('an elicitation mid-call is answered input_required by the SDK; the retry gets the result', async () => {
    const asking = envelope('2.0.0', { elicitation: { form: {} } });
    // The SDK accepts this envelope first (a list), so the call below takes the fast path.
    expect(await gateway.request('list-asking', 'tools/list', { _meta: asking })).toHaveProperty(
      'result',
    );
    const first = await gateway.request('ask', 'tools/call', {
      name: 'shared__ask',
      _meta: asking,
    });
    const round = first['result'] as Json;
    expect(round['resultType']).toBe('input_required');
    const requests = round['inputRequests'] as Record<string, Json>;
    const keys = Object.keys(requests);
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(requests[keys[0]!])).toContain('[shared] shared asks');
    const answer = await gateway.request('ask-again', 'tools/call', {
      name: 'shared__ask',
      _meta: asking,
      requestState: round['requestState'],
      inputResponses: { [keys[0]!]: { action: 'accept', content: { answer: 'yes' } } },
    });
    expect(texts(answer['result'] as Json)).toEqual([
      JSON.stringify({ action: 'accept', content: { answer: 'yes', count: 7 } }),
    ]);
  });
});
