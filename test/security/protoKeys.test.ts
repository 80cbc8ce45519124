/**
 * Finding 8 of issue #14: names a server or a client controls never turn into prototype
 * changes. A tool named `__proto__` is listed (and callable) like any other through the real
 * app-server; `__proto__`, `constructor` and `prototype` keys in a client's `_meta` (or in the
 * arguments' `_meta`) are dropped before the call, so a hand-written server that copies `_meta`
 * cannot inherit fake `codex/sandbox-*` keys; and an elicitation form whose field is named
 * `__proto__` answers with that field as data.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { applyElicitationDefaults } from '../../packages/runtime/src/connection/elicitationReply.js';
import { createForm, submit, typeText } from '../../packages/tui/src/model/form.js';
import type { FormState } from '../../packages/tui/src/model/form.js';
import { arr, makeHome, NODE, q } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { META_SERVER } from '../sandbox/helpers.js';

const HOSTILE_NAMES = ['__proto__', 'constructor', 'prototype'];
const FULL_ACCESS = '{"codex/sandbox-state":{"sandboxPolicy":{"type":"dangerFullAccess"}}}';

describe('server- and client-controlled names are data, never prototypes', () => {
  let server: RawAppServer;
  let threadId: string;

  beforeAll(async () => {
    server = RawAppServer.start(
      makeHome(
        `[mcp_servers.srv]\ncommand = ${q(NODE)}\nargs = ${arr([META_SERVER, '--capability', 'none', '--tools', HOSTILE_NAMES.join(',')])}\n`,
      ),
    );
    await server.initialize();
    threadId = (await server.call<{ thread: { id: string } }>('thread/start', {})).thread.id;
    await server.waitFor(
      (m) =>
        m.method === 'mcpServer/startupStatus/updated' &&
        (m.params as { status: string }).status === 'ready',
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('a tool named __proto__ is listed in status and can be called', async () => {
    const status = await server.call<{
      data: { tools: Record<string, unknown>; modelToolNames: Record<string, string> }[];
    }>('mcpServerStatus/list', { threadId });
    const [srv] = status.data;
    // JSON.parse makes `__proto__` an own key, so the names are compared as sent.
    expect(Object.keys(srv!.tools).sort()).toEqual(
      ['__proto__', 'constructor', 'error', 'meta', 'prototype'].sort(),
    );
    expect(Object.keys(srv!.modelToolNames)).toContain('__proto__');
    const reply = await server.call<{ content: { text: string }[] }>('mcpServer/tool/call', {
      threadId,
      server: 'srv',
      tool: '__proto__',
    });
    expect(JSON.parse(reply.content[0]!.text)).toMatchObject({ params: { name: '__proto__' } });
  });

  it('__proto__, constructor and prototype keys of _meta are not forwarded', async () => {
    // Written as raw text: these keys must reach the app-server exactly as a client sends them.
    const id = 'proto-meta';
    const reply = server.waitFor((m) => m.id === id);
    server.writeLine(
      `{"id":"${id}","method":"mcpServer/tool/call","params":{"threadId":"${threadId}","server":"srv","tool":"meta",` +
        `"_meta":{"__proto__":${FULL_ACCESS},"constructor":{"prototype":${FULL_ACCESS}},"prototype":1,"kept":1},` +
        `"arguments":{"a":1,"_meta":{"__proto__":${FULL_ACCESS},"kept":2}}}}`,
    );
    const result = (await reply).result as { content: { text: string }[] };
    const line = result.content[0]!.text;
    for (const name of HOSTILE_NAMES) expect(line).not.toContain(`"${name}"`);
    expect(line).not.toContain('dangerFullAccess');
    const request = JSON.parse(line) as {
      params: { _meta: Record<string, unknown>; arguments: Record<string, unknown> };
    };
    expect(request.params._meta).toMatchObject({ kept: 1 });
    expect(request.params.arguments).toEqual({ a: 1, _meta: { kept: 2 } });
  });
});

describe('elicitation field names', () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string","title":"odd","default":"d"},"name":{"type":"string"}}}',
  ) as Record<string, unknown>;

  it('the TUI form answers a field named __proto__ as data', () => {
    let form = createForm(schema) as FormState;
    expect('error' in form).toBe(false);
    form = typeText(form, 'typed');
    const { content } = submit(form);
    expect(Object.keys(content!)).toContain('__proto__');
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(JSON.stringify(content)).toContain('"__proto__":');
  });

  it("the runtime applies a __proto__ field's default as data", () => {
    const filled = applyElicitationDefaults(
      schema as { properties: Record<string, unknown> },
      JSON.parse('{"name":"n"}') as Record<string, unknown>,
    );
    expect(Object.keys(filled).sort()).toEqual(['__proto__', 'name']);
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
  });
});
