import { ProtocolError } from '@mcprt/protocol';
import { describe, expect, it } from 'vitest';

import { answerServerRequest } from './serverRequests.js';

const elicitation = { method: 'mcpServer/elicitation/request' };

describe('answerServerRequest', () => {
  it('declines an elicitation nobody handles', async () => {
    expect(await answerServerRequest(undefined, {}, elicitation)).toEqual({
      result: { action: 'decline', content: null },
    });
  });

  it('answers -32601 to any other unhandled method', async () => {
    expect(await answerServerRequest(undefined, {}, { method: 'x/y' })).toEqual({
      error: { code: -32601, message: 'no handler for x/y' },
    });
  });

  it("returns the handler's result, null for undefined", async () => {
    expect(await answerServerRequest(async () => ({ action: 'cancel' }), {}, elicitation)).toEqual({
      result: { action: 'cancel' },
    });
    expect(await answerServerRequest(() => undefined, {}, elicitation)).toEqual({ result: null });
  });

  it('maps thrown errors: ProtocolError as is, others to -32603', async () => {
    const protocol = (): never => {
      throw new ProtocolError(-32001, 'busy');
    };
    const plain = (): never => {
      throw new Error('oops');
    };
    const odd = (): never => {
      throw 'string thrown';
    };
    expect(await answerServerRequest(protocol, {}, elicitation)).toEqual({
      error: { code: -32001, message: 'busy' },
    });
    expect(await answerServerRequest(plain, {}, elicitation)).toEqual({
      error: { code: -32603, message: 'oops' },
    });
    expect(await answerServerRequest(odd, {}, elicitation)).toEqual({
      error: { code: -32603, message: 'string thrown' },
    });
  });
});
