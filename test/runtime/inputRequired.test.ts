// Input-required rounds (2026-07-28) through the library, against the 2026 fixture server in a
// real exec environment and locally: the round limit (a server that never stops asking fails
// its call with an error naming `server@env` and the count, and nothing else on that server
// breaks), decline/cancel/accept reaching the server exactly as the host answered — the same
// as a 2025 server receives over `elicitation/create` — and concurrent rounds of one server
// each pending on their own.

import { beforeAll, describe, expect, it } from 'vitest';

import type { ElicitationRequest, ElicitationResponse, Runtime, Session } from '@mcprt/runtime';
import { RequestFailedError, Runtime as RuntimeClass } from '@mcprt/runtime';

import { makeHome, shExecEnvironment, tempDir, text, waitFor } from '../helpers/fixtures.js';
import { modernServer } from '../helpers/revisions.js';

let runtime: Runtime;
let session: Session;
const asked: ElicitationRequest[] = [];
/** How the next elicitation is answered (tests set it before their call). */
let answer: (request: ElicitationRequest) => Promise<ElicitationResponse> = async () => ({
  action: 'decline',
});

// One runtime and one session for the file: the servers start once.
beforeAll(async () => {
  runtime = RuntimeClass.load({
    home: makeHome(
      shExecEnvironment('alpha', tempDir()) +
        modernServer('environments.alpha.mcp_servers.nagger', 'nagger') +
        modernServer('mcp_servers.modern', 'modern') +
        // The same server pinned to 2025: its rounds become real `elicitation/create` requests.
        modernServer('mcp_servers.legacy', 'legacy', 'protocol_version = "2025-11-25"', 'serve'),
    ),
    processEnv: process.env,
  });
  session = runtime.startSession({
    onElicitation: async (request) => {
      asked.push(request);
      return answer(request);
    },
  });
  const summary = await session.ready();
  expect(summary.failed).toEqual([]);
  return () => runtime.close();
});

const call = (server: string, tool: string, environmentId?: string) =>
  session.callTool({ server, tool, ...(environmentId ? { environmentId } : {}) });

describe('the input-required round limit', () => {
  it('fails a call still asking after 10 rounds, naming server@env; the server keeps working', async () => {
    asked.length = 0;
    answer = async () => ({ action: 'accept', content: {} });
    const error = await call('nagger', 'nag', 'alpha').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestFailedError);
    expect((error as Error).message).toBe(
      'tools/call to MCP server `nagger@alpha` failed: the server still asked for input after 10 input-required rounds (the limit per request)',
    );
    // The host answered 10 rounds; the server saw the first request and 10 retries, no more.
    expect(asked.map((r) => r.message)).toEqual(
      Array.from({ length: 10 }, (_, i) => `nagger asks again (leg ${i + 1})`),
    );
    expect(asked.every((r) => r.serverName === 'nagger' && r.environmentId === 'alpha')).toBe(true);
    expect(text(await call('nagger', 'nag_legs', 'alpha'))).toBe('11');
    expect(session.status('nagger', 'alpha').connectionStatus).toBe('connected');
    expect(
      text(
        await session.callTool({
          server: 'nagger',
          environmentId: 'alpha',
          tool: 'echo',
          arguments: { message: 'still here' },
        }),
      ),
    ).toBe('nagger: still here');
    // A one-round call on the same server completes.
    expect(text(await call('nagger', 'confirm', 'alpha'))).toBe(
      'accepted {"ok":true,"who":"nobody"}; state intact',
    );
    expect(session.pendingElicitations()).toEqual([]);
  });
});

describe('the host answer reaches the server as given, on 2026 and on 2025 alike', () => {
  const cases: [string, ElicitationResponse, unknown][] = [
    ['decline', { action: 'decline' }, { action: 'decline' }],
    ['cancel', { action: 'cancel' }, { action: 'cancel' }],
    // SEP-1034: the schema's default fills the missing field.
    ['accept', { action: 'accept', content: {} }, { action: 'accept', content: { note: 'none' } }],
    [
      'accept with content',
      { action: 'accept', content: { note: 'yes' } },
      { action: 'accept', content: { note: 'yes' } },
    ],
  ];
  for (const [label, reply, expected] of cases) {
    it(`${label}`, async () => {
      answer = async () => reply;
      for (const server of ['modern', 'legacy']) {
        asked.length = 0;
        const report = JSON.parse(text(await call(server, 'round_trip'))) as { response: unknown };
        expect(report.response, server).toEqual(expected);
        expect(asked.map((r) => [r.serverName, r.environmentId, r.mode, r.message])).toEqual([
          [server, null, 'form', `${server} wants an answer`],
        ]);
      }
      expect(session.status('modern').protocolVersion).toBe('2026-07-28');
      expect(session.status('legacy').protocolVersion).toBe('2025-11-25');
    });
  }

  it('a reply that does not match the schema never reaches a 2026 server', async () => {
    answer = async () => ({ action: 'accept', content: { note: 42 } });
    const error = await call('modern', 'round_trip').catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error.message).toMatch(
      /^tools\/call to MCP server `modern` failed: .*elicitation reply does not match the requested schema: data\/note must be string/,
    );
  });
});

describe('concurrent rounds of one 2026 server', () => {
  it('are pending side by side and each call gets its own answer', async () => {
    const release: (() => void)[] = [];
    let n = 0;
    answer = async () => {
      const mine = ++n;
      await new Promise<void>((resolve) => release.push(resolve));
      return { action: 'accept', content: { note: `answer ${mine}` } };
    };
    const calls = [call('modern', 'round_trip'), call('modern', 'round_trip')];
    await waitFor(() => release.length === 2, 10_000, 'two elicitations');
    // Both embedded requests are keyed `answer` by the server: they must not shadow each other.
    expect(session.pendingElicitations().map((r) => `${r.serverName}:${r.message}`)).toEqual([
      'modern:modern wants an answer',
      'modern:modern wants an answer',
    ]);
    release.forEach((r) => r());
    const notes = (await Promise.all(calls)).map(
      (r) =>
        (JSON.parse(text(r)) as { response: { content: { note: string } } }).response.content.note,
    );
    expect(notes.sort()).toEqual(['answer 1', 'answer 2']);
    expect(session.pendingElicitations()).toEqual([]);
  });
});
