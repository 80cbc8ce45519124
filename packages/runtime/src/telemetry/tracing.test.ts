import { describe, expect, it } from 'vitest';

import { errorType } from './tracing.js';

class CodedError extends Error {
  constructor(readonly code: unknown) {
    super('a message that must never become an attribute');
  }
}

describe('error.type of a failed span', () => {
  it('names a failure by its code or kind, never its message', () => {
    expect(errorType({ kind: 'server_error', serverError: { code: -32602 } })).toBe('-32602');
    expect(errorType({ kind: 'connection_closed', serverError: null })).toBe('connection_closed');
    expect(errorType(new CodedError(-32001))).toBe('-32001');
    expect(errorType(new CodedError('request_failed'))).toBe('request_failed');
    expect(errorType(new CodedError('has spaces: secret'))).toBe('CodedError');
    expect(errorType(new TypeError('x'))).toBe('TypeError');
    expect(errorType('a string')).toBe('_OTHER');
    expect(errorType({})).toBe('_OTHER');
  });
});
