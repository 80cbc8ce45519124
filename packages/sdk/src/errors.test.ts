import { describe, expect, it } from 'vitest';

import { RequestTimeoutError, toProtocolError } from './errors.js';

describe('RequestTimeoutError', () => {
  it('names the method and the timeout', () => {
    const error = new RequestTimeoutError('tool/call', 250);
    expect(error.message).toBe('tool/call timed out after 250 ms');
    expect([error.method, error.timeoutMs]).toEqual(['tool/call', 250]);
  });
});

describe('toProtocolError', () => {
  it('keeps code, message and data, and survives a malformed error object', () => {
    expect(toProtocolError({ code: -1, message: 'm', data: { x: 1 } }).toJSON()).toEqual({
      code: -1,
      message: 'm',
      data: { x: 1 },
    });
    expect(toProtocolError('nope')).toMatchObject({
      code: -32603,
      message: 'app-server sent a malformed error response',
      data: 'nope',
    });
  });
});
