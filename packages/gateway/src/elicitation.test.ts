/** Unit tests: an underlying elicitation as an embedded request, and the client's bare answers. */

import type { ElicitationRequest } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { answersFrom, inputRequestsFor } from './elicitation.js';

function request(overrides: Partial<ElicitationRequest>): ElicitationRequest {
  return {
    threadId: 't',
    scope: { environmentId: 'a', name: 'shared' },
    serverName: 'shared',
    environmentId: 'a',
    requestId: 3,
    mode: 'form',
    message: 'Which branch?',
    _meta: { progressToken: 9, trace: 'x' },
    signal: new AbortController().signal,
    origin: null,
    ...overrides,
  };
}

describe('inputRequestsFor', () => {
  it('labels the message with server@env and names the registration in _meta', () => {
    const schema = { type: 'object', properties: { branch: { type: 'string' } } };
    const out = inputRequestsFor(new Map([['e1', request({ requestedSchema: schema })]]));
    expect(out).toEqual({
      e1: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: '[shared@a] Which branch?',
          requestedSchema: schema,
          _meta: {
            trace: 'x',
            'mcprt/registration': { server: 'shared', environmentId: 'a', label: 'shared@a' },
          },
        },
      },
    });
  });

  it('keeps URL mode as URL mode, for a thread-wide server too', () => {
    const out = inputRequestsFor(
      new Map([
        [
          'e2',
          request({
            scope: { environmentId: null, name: 'docs' },
            mode: 'url',
            url: 'https://example.com/authorize',
            _meta: null,
          }),
        ],
      ]),
    );
    expect(out['e2']).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'url',
        message: '[docs] Which branch?',
        url: 'https://example.com/authorize',
        _meta: { 'mcprt/registration': { server: 'docs', environmentId: null, label: 'docs' } },
      },
    });
  });
});

describe('answersFrom', () => {
  it('reads elicitation answers and ignores anything else', () => {
    const answers = answersFrom({
      e1: { action: 'accept', content: { branch: 'main' } },
      e2: { action: 'decline', content: { ignored: true } },
      e3: { action: 'cancel' },
      e4: { roots: [] },
      e5: { action: 'maybe' },
      e6: 'nonsense',
    });
    expect([...answers.entries()]).toEqual([
      ['e1', { action: 'accept', content: { branch: 'main' } }],
      ['e2', { action: 'decline' }],
      ['e3', { action: 'cancel' }],
    ]);
    expect(answersFrom(undefined).size).toBe(0);
  });
});
