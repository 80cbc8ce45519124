// Type tests: request/notification/server-request types are inferred from the protocol's method
// table. They run under `tsc` (the root build type-checks test files); at runtime they are no-ops.
import type {
  ClientRequestParams,
  ClientRequestResult,
  McpServerToolCallResult,
  ServerNotificationParams,
  ServerRequestParams,
  ServerRequestResult,
} from '@mcprt/protocol';
import { describe, expectTypeOf, it } from 'vitest';

import type { McprtClient } from './client.js';
import type { AnyServerNotification, ServerNotification } from './clientTypes.js';
import type { NotificationStream } from './notificationStream.js';

// Never called: only its types matter.
declare const client: McprtClient;
const typeOnly = (fn: () => unknown): void => void fn;

describe('McprtClient types', () => {
  it('infers mcpServer/tool/call params and result from the method table', () => {
    typeOnly(() => {
      const result = client.request('mcpServer/tool/call', {
        threadId: 't',
        server: 'echo',
        tool: 'echo',
        arguments: { text: 'hi' },
      });
      expectTypeOf(result).toEqualTypeOf<Promise<McpServerToolCallResult>>();
      expectTypeOf(result).resolves.toHaveProperty('content').toBeArray();
      expectTypeOf(client.request<'mcpServer/tool/call'>)
        .parameter(1)
        .toEqualTypeOf<ClientRequestParams<'mcpServer/tool/call'>>();

      // @ts-expect-error threadId is required
      void client.request('mcpServer/tool/call', { server: 'echo', tool: 'echo' });
      // @ts-expect-error tool must be a string
      void client.request('mcpServer/tool/call', { threadId: 't', server: 'echo', tool: 1 });
      // @ts-expect-error not a method of the table
      void client.request('no/such/method', {});
    });
  });

  it('infers the other methods too', () => {
    typeOnly(() => {
      expectTypeOf(client.request('environment/list', undefined)).resolves.toEqualTypeOf<
        ClientRequestResult<'environment/list'>
      >();
      expectTypeOf(client.request('mcpServerStatus/list', { limit: 10 }))
        .resolves.toHaveProperty('nextCursor')
        .toEqualTypeOf<string | null>();
      // @ts-expect-error limit must be a number
      void client.request('mcpServerStatus/list', { limit: '10' });
      expectTypeOf(client.initializeResult.userAgent).toEqualTypeOf<string>();
    });
  });

  it('infers the view methods (mcprt extensions)', () => {
    typeOnly(() => {
      const hits = client.request('mcpServer/tool/search', { threadId: 't', query: 'run tests' });
      expectTypeOf(hits).resolves.toEqualTypeOf<ClientRequestResult<'mcpServer/tool/search'>>();
      expectTypeOf(hits).resolves.toHaveProperty('tools').items.toEqualTypeOf<{
        name: string;
        server: string;
        environmentId: string | null;
        description: string;
        score: number;
      }>();
      const cost = client.request('thread/toolView/get', { threadId: 't', view: null });
      expectTypeOf(cost).resolves.toHaveProperty('thresholdTokens').toEqualTypeOf<number | null>();
      expectTypeOf(client.request('thread/start', { view: 'review' }))
        .resolves.toHaveProperty('thread')
        .toHaveProperty('view')
        .toEqualTypeOf<string | undefined>();
      // @ts-expect-error query is required
      void client.request('mcpServer/tool/search', { threadId: 't' });
      // @ts-expect-error limit must be a number
      void client.request('mcpServer/tool/search', { threadId: 't', query: 'x', limit: '8' });
    });
  });

  it('types notification handlers and streams by method', () => {
    typeOnly(() => {
      client.on('item/mcpToolCall/progress', (params, notification) => {
        expectTypeOf(params).toEqualTypeOf<ServerNotificationParams<'item/mcpToolCall/progress'>>();
        expectTypeOf(params.message).toEqualTypeOf<string>();
        expectTypeOf(notification.emittedAtMs).toEqualTypeOf<number | undefined>();
      });
      // @ts-expect-error not a server notification
      client.on('initialized', () => {});
      expectTypeOf(client.notifications('item/completed')).toEqualTypeOf<
        NotificationStream<ServerNotification<'item/completed'>>
      >();
      expectTypeOf(client.notifications()).toEqualTypeOf<
        NotificationStream<AnyServerNotification>
      >();
    });
  });

  it('narrows the notification union on method', () => {
    typeOnly(async () => {
      for await (const n of client.notifications()) {
        if (n.method === 'item/started') {
          expectTypeOf(n.params).toEqualTypeOf<ServerNotificationParams<'item/started'>>();
        }
      }
    });
  });

  it('types server request handlers by method', () => {
    typeOnly(() => {
      client.handleRequest('mcpServer/elicitation/request', (params, context) => {
        expectTypeOf(params).toEqualTypeOf<ServerRequestParams<'mcpServer/elicitation/request'>>();
        expectTypeOf(context.method).toEqualTypeOf<'mcpServer/elicitation/request'>();
        expectTypeOf<{ action: 'decline'; content: null }>().toExtend<
          ServerRequestResult<'mcpServer/elicitation/request'>
        >();
        return { action: 'accept', content: { name: 'x' } };
      });
      // @ts-expect-error action must be accept, decline or cancel
      client.handleRequest('mcpServer/elicitation/request', () => ({ action: 'maybe' }));
    });
  });
});
