/** parseParams answers bad params with Codex-style -32600 messages; validateOutgoing fails loudly. */

import { describe, expect, it } from 'vitest';

import { ErrorCode, ProtocolError } from './errors.js';
import { clientNotifications, clientRequests } from './registry.js';
import { compileFastCheck, parseParams, validateOutgoing } from './validate.js';

function messageOf(run: () => unknown): { code: number; message: string } {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolError);
    return (e as ProtocolError).toJSON();
  }
  throw new Error('expected a ProtocolError');
}

const call = clientRequests['mcpServer/tool/call'];
const list = clientRequests['mcpServerStatus/list'];
const start = clientRequests['thread/start'];

describe('parseParams', () => {
  it('names a missing field like serde', () => {
    expect(
      messageOf(() =>
        parseParams(call.params, { threadId: 't', server: 's' }, 'mcpServer/tool/call'),
      ),
    ).toEqual({ code: -32600, message: 'Invalid request: missing field `tool`' });
  });

  it('names the object holding a missing nested field', () => {
    const params = { environments: [{ environmentId: 'a' }] };
    expect(messageOf(() => parseParams(start.params, params, 'thread/start')).message).toBe(
      'Invalid request: missing field `cwd` at `environments[0]`',
    );
  });

  it('names the path of a field with the wrong type', () => {
    expect(
      messageOf(() =>
        parseParams(call.params, { threadId: 't', server: 5, tool: 'x' }, 'mcpServer/tool/call'),
      ),
    ).toEqual({
      code: -32600,
      message: 'Invalid request: invalid type: expected string at `server`',
    });
    const nested = { environments: [{ environmentId: 1, cwd: '/' }] };
    expect(messageOf(() => parseParams(start.params, nested, 'thread/start')).message).toBe(
      'Invalid request: invalid type: expected string at `environments[0].environmentId`',
    );
  });

  it('reports a wrong type before a missing field, as serde does', () => {
    expect(
      messageOf(() => parseParams(call.params, { server: 5 }, 'mcpServer/tool/call')).message,
    ).toBe('Invalid request: invalid type: expected string at `server`');
  });

  it('lists the variants of an enum like serde', () => {
    expect(
      messageOf(() => parseParams(list.params, { detail: 'bogus' }, 'mcpServerStatus/list')),
    ).toEqual({
      code: -32600,
      message: 'Invalid request: unknown variant `bogus`, expected `full` or `toolsAndAuthOnly`',
    });
    expect(
      messageOf(() => parseParams(start.params, { sandbox: 'x' }, 'thread/start')).message,
    ).toBe(
      'Invalid request: unknown variant `x`, expected one of `read-only`, `workspace-write`, `danger-full-access`',
    );
  });

  it('rejects params that are not an object', () => {
    expect(messageOf(() => parseParams(call.params, ['t'], 'mcpServer/tool/call')).message).toBe(
      'Invalid request: invalid type: expected object at `params`',
    );
  });

  it('reads absent or null params as {} when every field is optional', () => {
    expect(parseParams(list.params, undefined, 'mcpServerStatus/list')).toEqual({});
    expect(parseParams(list.params, null, 'mcpServerStatus/list')).toEqual({});
    const reload = clientRequests['config/mcpServer/reload'].params;
    expect(parseParams(reload, undefined, 'config/mcpServer/reload')).toBeUndefined();
    expect(parseParams(reload, null, 'config/mcpServer/reload')).toBeNull();
    expect(parseParams(reload, {}, 'config/mcpServer/reload')).toEqual({});
    const envList = clientRequests['environment/list'].params;
    expect(parseParams(envList, undefined, 'environment/list')).toBeUndefined();
    const initialized = clientNotifications.initialized.params;
    expect(parseParams(initialized, undefined, 'initialized')).toBeUndefined();
  });

  it('reports the first missing field when required params are absent', () => {
    expect(
      messageOf(() => parseParams(call.params, undefined, 'mcpServer/tool/call')).message,
    ).toBe('Invalid request: missing field `threadId`');
  });

  it('accepts unknown keys and non-object tool arguments', () => {
    const params = { threadId: 't', server: 's', tool: 'x', arguments: 'not-an-object', extra: 1 };
    expect(parseParams(call.params, params, 'mcpServer/tool/call')).toEqual({
      threadId: 't',
      server: 's',
      tool: 'x',
      arguments: 'not-an-object',
    });
  });

  it('keeps unknown thread/start fields and the opaque sandbox state', () => {
    const sandboxState = { sandboxPolicy: { type: 'readOnly', future: [1] } };
    const params = { ephemeral: true, sandboxState, selectedCapabilityRoots: [] };
    expect(parseParams(start.params, params, 'thread/start')).toEqual(params);
  });
});

describe('validateOutgoing', () => {
  it('returns the value when it matches', () => {
    const result = { data: [], nextCursor: null };
    expect(validateOutgoing(list.result, result)).toEqual(result);
  });

  it('fails as an internal error naming the schema and the problem', () => {
    expect(messageOf(() => validateOutgoing(list.result, { data: [] }))).toEqual({
      code: ErrorCode.InternalError,
      message: 'invalid outgoing ListMcpServerStatusResult: missing field `nextCursor`',
    });
  });
});

describe('the fast check of flat params (ADR 0022)', () => {
  const base = { threadId: 't', server: 's', tool: 'x' };
  const inputs: unknown[] = [
    base,
    { ...base, environmentId: 'box', arguments: { a: [1] }, _meta: 'm' },
    { ...base, environmentId: null, arguments: null },
    { ...base, environmentId: 3 },
    { ...base, tool: 1 },
    { ...base, tool: undefined },
    { threadId: 't', server: 's' },
    { ...base, extra: 1 },
    { ...base, arguments: undefined },
    JSON.parse('{"threadId":"t","server":"s","tool":"x","__proto__":{"a":1}}'),
    Object.assign(Object.create({ inherited: 1 }) as object, base),
    [base],
    'text',
    null,
    undefined,
    {},
    { threadId: 't', ephemeral: true, cwd: '/x' },
    { threadId: 't', ephemeral: 'yes' },
    { itemId: 'i', threadId: 't' },
  ];

  it('accepts only input its schema parses to an equal value, for every method', () => {
    let compiled = 0;
    let accepted = 0;
    for (const [method, spec] of Object.entries(clientRequests)) {
      const check = compileFastCheck(spec.params);
      if (check === null) continue;
      compiled += 1;
      for (const input of inputs) {
        if (!check(input)) continue;
        accepted += 1;
        const parsed = spec.params.safeParse(input);
        expect(parsed.success, `${method} ${JSON.stringify(input)}`).toBe(true);
        expect(parsed.data).toStrictEqual(input);
        // Same members and values (the input keeps its own member order).
        expect(parseParams(spec.params, input, method)).toBe(input);
      }
    }
    expect(compiled).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
  });

  it('has one for the tool-call params, and leaves wrong input to the schema and its texts', () => {
    const check = compileFastCheck(call.params)!;
    expect(check).not.toBeNull();
    expect(check(base)).toBe(true);
    expect(check({ ...base, extra: 1 })).toBe(false);
    expect(parseParams(call.params, { ...base, extra: 1 }, 'mcpServer/tool/call')).toEqual(base);
    expect(
      messageOf(() => parseParams(call.params, { ...base, tool: 1 }, 'mcpServer/tool/call')),
    ).toEqual({
      code: -32600,
      message: 'Invalid request: invalid type: expected string at `tool`',
    });
  });
});
