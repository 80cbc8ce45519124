/**
 * Property test: whatever JSON value the host supplies as the sandbox state — unknown fields at
 * any depth, any key order, odd keys (`__proto__`, unicode, empty) — is what an opted-in server
 * receives under both keys. Through the library (a JS value) and through the app-server (JSON
 * text: `thread/start` and `thread/sandboxState/update`), where the state must appear in the
 * server's request line as the very same text.
 */

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome } from '../helpers/fixtures.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { metaServer, receivedMeta } from './helpers.js';

const load = useRuntimes();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Random JSON values. Objects are built from entries with `Object.fromEntries`, so every key —
 * `__proto__` included — is an own property in generation order. `arrayIndexKeys: false` leaves
 * out keys like `"7"`, which any JavaScript object (so any JS host or server) orders first.
 */
function jsonValue(arrayIndexKeys: boolean): fc.Arbitrary<Json> {
  const key = fc
    .oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('__proto__', 'constructor', 'type', 'sandboxPolicy', '', '7', '0'),
    )
    .filter((k) => arrayIndexKeys || !/^\d+$/.test(k));
  const leaf = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  const { value } = fc.letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc
        .uniqueArray(fc.tuple(key, tie('value')), { selector: (e) => e[0], maxLength: 5 })
        .map((entries) => Object.fromEntries(entries) as Json),
    ),
  }));
  return value;
}

/** A plausible state with unknown nested fields, or any non-null JSON value at all. */
function sandboxState(arrayIndexKeys: boolean): fc.Arbitrary<Json> {
  const any = jsonValue(arrayIndexKeys);
  return fc.oneof(
    fc
      .tuple(any, any, fc.boolean())
      .map(([extra, unknown, first]) =>
        first
          ? { unknownTop: unknown, sandboxPolicy: { type: 'readOnly', extra }, sandboxCwd: '/w' }
          : { sandboxPolicy: { extra, type: 'workspaceWrite' }, zLast: unknown },
      ),
    any.filter((v) => v !== null),
  );
}

describe('the sandbox state arrives exactly as supplied', () => {
  it('through the library: deep-equal, key order included', async () => {
    const runtime = load(metaServer('mcp_servers.srv', 'current'));
    const session = runtime.startSession();
    await fc.assert(
      fc.asyncProperty(sandboxState(true), async (state) => {
        session.setSandboxState(state);
        const meta = receivedMeta(await session.callTool({ server: 'srv', tool: 'meta' }));
        for (const key of ['codex/sandbox-state', 'codex/sandbox-state-meta']) {
          // toEqual, not toStrictEqual: the latter compares `.constructor`, which a state may
          // legitimately carry as an own key. The JSON text pins structure and key order.
          expect(meta?.[key]).toEqual(state);
          expect(JSON.stringify(meta?.[key])).toBe(JSON.stringify(state));
        }
      }),
      { numRuns: 60 },
    );
  });

  describe('through the app-server', () => {
    let server: RawAppServer;
    beforeAll(async () => {
      server = RawAppServer.start(makeHome(metaServer('mcp_servers.srv', 'both')));
      await server.initialize();
    });
    afterAll(async () => {
      await server.close();
    });

    /** The request line the server received for one `meta` call of the thread. */
    async function requestLine(threadId: string): Promise<string> {
      const result = await server.call('mcpServer/tool/call', {
        threadId,
        server: 'srv',
        tool: 'meta',
      });
      return (result as { content: { text: string }[] }).content[0]!.text;
    }

    it('thread/start and thread/sandboxState/update: the same JSON text on the wire', async () => {
      await fc.assert(
        fc.asyncProperty(sandboxState(false), sandboxState(false), async (first, second) => {
          for (const [i, state] of [first, second].entries()) {
            const text = JSON.stringify(state);
            // The host's own JSON text, embedded verbatim in the request line.
            const params =
              i === 0
                ? `{"ephemeral":true,"sandboxState":${text}}`
                : `{"threadId":${JSON.stringify(threadId)},"sandboxState":${text}}`;
            const method = i === 0 ? 'thread/start' : 'thread/sandboxState/update';
            const id = `${method}-${++requests}`;
            const reply = server.waitFor((m) => m.id === id);
            server.writeLine(`{"id":"${id}","method":"${method}","params":${params}}`);
            const answer = await reply;
            expect(answer.error).toBeUndefined();
            if (i === 0) threadId = (answer.result as { thread: { id: string } }).thread.id;
            const line = await requestLine(threadId);
            expect(line).toContain(`"codex/sandbox-state":${text}`);
            expect(line).toContain(`"codex/sandbox-state-meta":${text}`);
            const meta = (JSON.parse(line) as { params: { _meta: Record<string, unknown> } }).params
              ._meta;
            expect(meta['codex/sandbox-state']).toEqual(state);
          }
        }),
        { numRuns: 25 },
      );
    });
    let threadId = '';
    let requests = 0;
  });
});
