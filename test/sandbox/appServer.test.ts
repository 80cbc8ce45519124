/**
 * `thread/sandboxState/update` over the real app-server: answers `{}` and later calls carry the
 * new state (see keyOrder/example tests); bad requests are refused with clear errors and change
 * nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { metaServer } from './helpers.js';

describe('thread/sandboxState/update', () => {
  let server: RawAppServer;
  let threadId: string;
  const state = { sandboxPolicy: { type: 'readOnly' } };

  beforeAll(async () => {
    server = RawAppServer.start(makeHome(metaServer('mcp_servers.srv', 'current')));
    await server.initialize();
    const started = await server.call<{ thread: { id: string } }>('thread/start', {
      sandboxState: state,
    });
    threadId = started.thread.id;
  });
  afterAll(async () => {
    await server.close();
  });

  const stateSeen = async () => {
    const result = await server.call<{ content: { text: string }[] }>('mcpServer/tool/call', {
      threadId,
      server: 'srv',
      tool: 'meta',
    });
    const line = JSON.parse(result.content[0]!.text) as {
      params: { _meta: Record<string, unknown> };
    };
    return line.params._meta['codex/sandbox-state'];
  };

  it('an unknown thread is refused', async () => {
    const reply = await server.request('thread/sandboxState/update', {
      threadId: 'no-such-thread',
      sandboxState: {},
    });
    expect(reply.error).toEqual({ code: -32600, message: 'thread not found: no-such-thread' });
  });

  it('a request without sandboxState is refused and the state is unchanged', async () => {
    const reply = await server.request('thread/sandboxState/update', { threadId });
    expect(reply.error).toEqual({
      code: -32600,
      message:
        'Invalid request: invalid value at `sandboxState`: sandboxState is required (null clears the state)',
    });
    expect(await stateSeen()).toEqual(state);
  });

  it('null clears the state: opted-in servers then get no sandbox keys', async () => {
    expect(
      await server.call('thread/sandboxState/update', { threadId, sandboxState: null }),
    ).toEqual({});
    expect(await stateSeen()).toBeUndefined();
    await server.call('thread/sandboxState/update', { threadId, sandboxState: state });
    expect(await stateSeen()).toEqual(state);
  });
});
