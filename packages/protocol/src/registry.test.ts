/** Pins: the method table and the error codes, as literals. Changing one is an API decision. */

import { describe, expect, it } from 'vitest';

import { ErrorCode } from './errors.js';
import {
  clientNotifications,
  clientRequests,
  serverNotifications,
  serverRequests,
} from './registry.js';

const flags = (table: Record<string, { experimental: boolean }>) =>
  Object.fromEntries(Object.entries(table).map(([m, s]) => [m, s.experimental]));

describe('method table', () => {
  it('pins client requests', () => {
    expect(flags(clientRequests)).toEqual({
      initialize: false,
      'thread/start': false,
      'thread/sandboxState/update': false,
      'mcpServerStatus/list': false,
      'mcpServer/tool/call': false,
      'mcpServer/resource/read': false,
      'mcpServer/oauth/login': false,
      'mcpServer/oauth/login/submitRedirect': false,
      'mcpServer/oauth/logout': false,
      'config/mcpServer/reload': false,
      'mcpServer/tool/cancel': false,
      'history/list': false,
      'mcpServer/task/list': false,
      'mcpServer/task/result': false,
      'environment/list': false,
      'mcpServer/tool/search': false,
      'thread/toolView/get': false,
    });
  });

  it('pins client notifications', () => {
    expect(flags(clientNotifications)).toEqual({ initialized: false, '$/cancelRequest': false });
  });

  it('pins server requests', () => {
    expect(flags(serverRequests)).toEqual({ 'mcpServer/elicitation/request': false });
  });

  it('pins server notifications', () => {
    expect(flags(serverNotifications)).toEqual({
      'thread/started': false,
      'mcpServer/startupStatus/updated': false,
      'mcpServer/oauthLogin/completed': false,
      'item/mcpToolCall/progress': false,
      'item/started': false,
      'item/completed': false,
      'serverRequest/resolved': false,
    });
  });
});

describe('error codes', () => {
  it('pins the JSON-RPC codes', () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
    });
  });
});
