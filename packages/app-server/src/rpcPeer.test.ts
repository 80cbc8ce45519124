import { describe, expect, it } from 'vitest';

import { EncodedJson } from './encodedJson.js';
import type { Dispatcher, IncomingRequest } from './rpcPeer.js';
import { NOTIFY_SOON_MS, RpcPeer } from './rpcPeer.js';

/** A peer whose dispatcher hands each request to `onRequest`; what it sends is collected. */
function peerWith(onRequest: (method: string, request: IncomingRequest) => Promise<unknown>) {
  const sent: string[] = [];
  const dispatcher: Dispatcher = {
    handleRequest: (_peer, method, _params, request) => onRequest(method, request),
    handleNotification: () => undefined,
    onClose: () => undefined,
  };
  const peer = new RpcPeer({ send: (text) => sent.push(text), close: () => undefined }, dispatcher);
  return { peer, sent };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RpcPeer', () => {
  it('writes an EncodedJson result as the response text, in the style the client used', async () => {
    const text = '{"content":[],"x":"é"}';
    const codex = peerWith(async () => new EncodedJson(text));
    codex.peer.receive('{"id":"a","method":"m"}');
    const jsonrpc = peerWith(async () => new EncodedJson(text));
    jsonrpc.peer.receive('{"jsonrpc":"2.0","id":7,"method":"m"}');
    await settle();
    expect(codex.sent).toEqual([`{"id":"a","result":${text}}`]);
    expect(jsonrpc.sent).toEqual([`{"jsonrpc":"2.0","id":7,"result":${text}}`]);
    expect(JSON.parse(jsonrpc.sent[0]!)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: JSON.parse(text),
    });
  });

  it('cancels a request on $/cancelRequest once, and not after its canceller is removed', async () => {
    const cancels: string[] = [];
    let finish = () => undefined as void;
    const { peer, sent } = peerWith(
      (method, request) =>
        new Promise((resolve) => {
          const off = request.onCancel(() => cancels.push(method));
          if (method === 'quiet') off();
          finish = () => resolve('done');
        }),
    );
    peer.receive('{"id":1,"method":"loud"}');
    peer.receive('{"method":"$/cancelRequest","params":{"id":1}}');
    peer.receive('{"method":"$/cancelRequest","params":{"id":1}}');
    expect(cancels).toEqual(['loud']);
    finish();
    peer.receive('{"id":2,"method":"quiet"}');
    peer.receive('{"method":"$/cancelRequest","params":{"id":2}}');
    finish();
    await settle();
    expect(cancels).toEqual(['loud']);
    expect(sent).toEqual(['{"id":1,"result":"done"}', '{"id":2,"result":"done"}']);
  });

  it('cancels every open request when the connection closes; a late canceller runs at once', () => {
    const requests: IncomingRequest[] = [];
    const { peer } = peerWith((_method, request) => {
      requests.push(request);
      return new Promise(() => undefined);
    });
    const cancels: number[] = [];
    peer.receive('{"id":1,"method":"m"}');
    peer.receive('{"id":2,"method":"m"}');
    requests[0]!.onCancel(() => cancels.push(1));
    peer.close();
    expect(cancels).toEqual([1]);
    requests[1]!.onCancel(() => cancels.push(2));
    expect(cancels).toEqual([1, 2]);
  });

  it('holds notifySoon messages until the next write or the timer, in order, each time', async () => {
    const { peer, sent } = peerWith(async () => 'r');
    peer.notifySoonEncoded('item/started', '{"n":1}');
    peer.notifySoon('item/other', { n: 2 });
    expect(sent).toEqual([]);
    peer.notify('item/completed', { n: 3 });
    expect(sent.map((t) => (JSON.parse(t) as { method: string }).method)).toEqual([
      'item/started',
      'item/other',
      'item/completed',
    ]);
    expect(JSON.parse(sent[0]!)).toMatchObject({ method: 'item/started', params: { n: 1 } });
    // Nothing else written: the timer (re-armed for the next hold) sends it alone.
    for (let round = 0; round < 2; round++) {
      sent.length = 0;
      peer.notifySoonEncoded('item/started', `{"round":${round}}`);
      await new Promise((resolve) => setTimeout(resolve, NOTIFY_SOON_MS + 20));
      expect(sent).toHaveLength(1);
      expect(JSON.parse(sent[0]!)).toMatchObject({ params: { round } });
    }
    peer.close();
  });
});
