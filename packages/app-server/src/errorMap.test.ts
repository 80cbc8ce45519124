import { ErrorCode, ProtocolError } from '@mcprt/protocol';
import {
  EnvironmentNotSelectedError,
  RequestFailedError,
  ServerUnavailableError,
  ToolDisabledError,
  ToolNotInViewError,
  UnknownEnvironmentError,
  UnknownViewError,
} from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { toProtocolError } from './errorMap.js';

describe('toProtocolError', () => {
  it('makes selector problems client faults (-32600)', () => {
    for (const error of [
      new UnknownEnvironmentError('mars'),
      new EnvironmentNotSelectedError('box', 'thread-1'),
      new UnknownViewError('ops', ['review']),
    ]) {
      expect(toProtocolError(error)).toMatchObject({
        code: ErrorCode.InvalidRequest,
        message: error.message,
      });
    }
  });

  it("passes an MCP server's own JSON-RPC error on with its code, message and data", () => {
    const failed = new RequestFailedError('tools/call to MCP server `x` failed: bad', {
      serverError: { code: -32602, message: 'MCP error -32602: bad', data: { field: 'q' } },
    });
    expect(toProtocolError(failed).toJSON()).toEqual({
      code: -32602,
      message: 'MCP error -32602: bad',
      data: { field: 'q' },
    });
  });

  it('keeps codes outside the JSON-RPC range, and failures without a server error, internal', () => {
    const custom = new RequestFailedError('tools/call to MCP server `x` failed: odd', {
      serverError: { code: 7, message: 'odd' },
    });
    expect(toProtocolError(custom)).toMatchObject({
      code: ErrorCode.InternalError,
      message: 'tools/call to MCP server `x` failed: odd',
    });
    const died = new RequestFailedError('tools/call to MCP server `x` failed: the server stopped');
    expect(toProtocolError(died).code).toBe(ErrorCode.InternalError);
  });

  it('maps other runtime errors and anything unexpected to -32603 with their message', () => {
    expect(toProtocolError(new ServerUnavailableError('x', 'it is disabled'))).toMatchObject({
      code: ErrorCode.InternalError,
      message: 'MCP server `x` is not available: it is disabled',
    });
    expect(toProtocolError('plain')).toMatchObject({ code: -32603, message: 'plain' });
    // A tool the thread may not call: disabled, or outside its view (refused), alike.
    for (const error of [
      new ToolDisabledError('rm', 'shell@a', null),
      new ToolNotInViewError('rm', 'shell@a', 'review'),
    ]) {
      expect(toProtocolError(error)).toMatchObject({
        code: ErrorCode.InternalError,
        message: error.message,
      });
    }
    const kept = new ProtocolError(-32601, 'no such method');
    expect(toProtocolError(kept)).toBe(kept);
  });
});
