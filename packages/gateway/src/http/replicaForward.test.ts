/**
 * The replica router's decisions that need no peer (test/gateway/replicas.test.ts runs real
 * replicas behind HAProxy): no replicas, no router; a replica finds itself by its origin, spelled
 * any way a URL normalises to it; what is served here rather than passed on.
 */

import { describe, expect, it } from 'vitest';

import { ReplicaConfigError, replicaRouter } from './replicaForward.js';

const LIST = ['http://127.0.0.1:7001', 'http://127.0.0.1:7002'];
const noLog = () => undefined;

function retry(requestState: unknown, method = 'POST'): Request {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'x', requestState },
  });
  return new Request('http://127.0.0.1:7001/mcp', {
    method,
    ...(method === 'POST' ? { body } : {}),
  });
}

describe('replicaRouter', () => {
  it('is null without replicas: a single gateway changes nothing', () => {
    expect(replicaRouter([], 'http://127.0.0.1:7001/mcp', noLog)).toBeNull();
  });

  it('finds itself by its listening origin and mints r<index>. tokens', () => {
    const router = replicaRouter(LIST, 'http://127.0.0.1:7002/mcp', noLog);
    expect(router?.id).toBe('r1');
    expect(router?.tokenPrefix).toBe('r1.');
    const https = replicaRouter(
      ['https://gw.example:443', 'https://gw.example:8443'],
      'https://gw.example/mcp',
      noLog,
    );
    expect(https?.id).toBe('r0');
  });

  it('refuses to start when its own origin is not listed, naming both', () => {
    const start = () => replicaRouter(LIST, 'http://localhost:7001/mcp', noLog);
    expect(start).toThrow(ReplicaConfigError);
    expect(start).toThrow(
      '[serve] replicas lists http://127.0.0.1:7001, http://127.0.0.1:7002, but this replica listens on http://localhost:7001, which is not among them',
    );
  });

  it('serves here what is not another replica’s retry', async () => {
    const router = replicaRouter(LIST, 'http://127.0.0.1:7001/mcp', noLog)!;
    for (const request of [
      retry('r0.abcdef'), // its own
      retry('plain-token'), // not a replica token: the handler says invalid or expired
      retry('r1.'), // no random part
      retry(42),
      retry('r1.abcdef', 'GET'),
      new Request('http://127.0.0.1:7001/mcp', { method: 'POST', body: 'not json "requestState"' }),
    ]) {
      expect(await router.route(request)).toBeUndefined();
    }
  });

  it('leaves the request body readable for the handler after looking', async () => {
    const router = replicaRouter(LIST, 'http://127.0.0.1:7001/mcp', noLog)!;
    const request = retry('r0.abcdef');
    await router.route(request);
    expect(JSON.parse(await request.text())).toMatchObject({
      params: { requestState: 'r0.abcdef' },
    });
  });
});
