/**
 * The sandbox contract on the 2026-07-28 revision, against the 2026-only fixture server
 * advertising `codex/sandbox-state` in its discover result (real processes: local stdio, HTTP on
 * 127.0.0.1, stdio in an exec environment), side by side with a 2025 server: the same keys with
 * the same values (the launcher for local stdio only), spoofed `codex/sandbox-*` keys stripped,
 * and an input-required round's retried request carrying exactly the authority captured when
 * the call was issued — a state change while the host answers does not reach it (docs/sandbox.md).
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ElicitationResponse, Runtime, Session } from '@mcprt/runtime';
import { Runtime as RuntimeClass } from '@mcprt/runtime';

import {
  arr,
  FIXTURES,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  text,
} from '../helpers/fixtures.js';
import { assertBubblewrapWorks, metaServer, receivedMeta, sandboxKeys } from './helpers.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const STATE = { zFirst: 1, sandboxPolicy: { type: 'readOnly', future: [{ b: 2, a: 1 }] } };
const LATER = { sandboxPolicy: { type: 'dangerFullAccess' } };
const STATE_KEYS = ['codex/sandbox-state', 'codex/sandbox-state-meta'];
const ALL_KEYS = [...STATE_KEYS, 'codex/sandbox-launcher'];

const modern = (table: string, flags: string[]) =>
  `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([MODERN, ...flags])}\nstartup_timeout_sec = 20\n`;

interface Report {
  response: unknown;
  arguments: Record<string, unknown>;
  firstMeta: Record<string, unknown>;
  secondMeta: Record<string, unknown>;
}

let http: ChildProcess;
let runtime: Runtime;
let session: Session;
/** Runs while the host answers the round (before the answer goes back). */
let duringRound: () => void = () => undefined;

beforeAll(async () => {
  assertBubblewrapWorks();
  http = spawn(NODE, [MODERN, '--transport', 'http', '--sandbox', '--name', 'web'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) =>
    http.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    }),
  );
  runtime = RuntimeClass.load({
    home: makeHome(
      modern('mcp_servers.modern', ['--sandbox', '--name', 'modern']) +
        modern('mcp_servers.plain', ['--name', 'plain']) +
        `[mcp_servers.web]\nurl = "http://127.0.0.1:${port}/mcp"\n` +
        metaServer('mcp_servers.old', 'current') +
        shExecEnvironment('alpha', tempDir()) +
        modern('environments.alpha.mcp_servers.modern', ['--sandbox', '--name', 'modern-alpha']),
    ),
    processEnv: process.env,
  });
  session = runtime.startSession({
    sandboxState: STATE,
    onElicitation: async (): Promise<ElicitationResponse> => {
      duringRound();
      return { action: 'accept', content: { note: 'go' } };
    },
  });
  expect((await session.ready()).failed).toEqual([]);
});
afterAll(async () => {
  await runtime?.close();
  http?.kill();
});

/** One `round_trip` call (an input-required round): what the server saw on both legs. */
async function roundTrip(
  server: string,
  options: { environmentId?: string; meta?: unknown; arguments?: Record<string, unknown> } = {},
): Promise<Report> {
  const result = await session.callTool({ server, tool: 'round_trip', ...options });
  return JSON.parse(text(result)) as Report;
}

const sandboxPart = (meta: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(meta ?? {}).filter(([k]) => k.startsWith('codex/sandbox-')));

describe('2026 servers receive the sandbox keys as 2025 servers do', () => {
  it('local stdio: both state keys (the exact value, key order kept) and the same launcher', async () => {
    expect(session.status('modern').protocolVersion).toBe('2026-07-28');
    const { firstMeta } = await roundTrip('modern');
    expect(sandboxKeys(firstMeta).sort()).toEqual([...ALL_KEYS].sort());
    for (const key of STATE_KEYS)
      expect(JSON.stringify(firstMeta[key])).toBe(JSON.stringify(STATE));
    // The 2025 server in the same thread gets the very same sandbox keys and values.
    const old = receivedMeta(await session.callTool({ server: 'old', tool: 'meta' }));
    expect(sandboxPart(firstMeta)).toEqual(sandboxPart(old));
    // Next to the request's own keys (the SDK's 2026 per-request keys are not shown to tools).
    expect(Object.keys(firstMeta)).toEqual(['progressToken', 'threadId', ...ALL_KEYS]);
  });

  it('HTTP on 127.0.0.1 and stdio in an exec environment: both state keys, no launcher', async () => {
    for (const [server, environmentId] of [
      ['web', undefined],
      ['modern', 'alpha'],
    ] as const) {
      const { firstMeta } = await roundTrip(server, environmentId ? { environmentId } : {});
      expect(sandboxKeys(firstMeta).sort(), server).toEqual(STATE_KEYS);
      expect(firstMeta['codex/sandbox-state'], server).toEqual(STATE);
    }
  });

  it('a 2026 server that did not advertise it gets no sandbox key', async () => {
    const { firstMeta, secondMeta } = await roundTrip('plain');
    expect(sandboxKeys(firstMeta)).toEqual([]);
    expect(sandboxKeys(secondMeta)).toEqual([]);
  });
});

describe('the retried request of an input-required round', () => {
  it('carries the authority captured at call start, not the state as changed during the round', async () => {
    session.setSandboxState(STATE);
    duringRound = () => session.setSandboxState(LATER);
    try {
      for (const server of ['modern', 'web']) {
        session.setSandboxState(STATE);
        const { firstMeta, secondMeta } = await roundTrip(server);
        expect(session.sandboxState, server).toBe(LATER);
        expect(sandboxPart(secondMeta), server).toEqual(sandboxPart(firstMeta));
        expect(secondMeta['codex/sandbox-state'], server).toEqual(STATE);
        expect(secondMeta['codex/sandbox-state-meta'], server).toEqual(STATE);
      }
    } finally {
      duringRound = () => undefined;
    }
    // The next call is issued under the changed state.
    const { firstMeta, secondMeta } = await roundTrip('modern');
    expect(firstMeta['codex/sandbox-state']).toEqual(LATER);
    expect(secondMeta['codex/sandbox-state']).toEqual(LATER);
    session.setSandboxState(STATE);
  });

  it('strips spoofed codex/sandbox-* keys from _meta and from the arguments on both legs', async () => {
    const spoof = { sandboxPolicy: { type: 'dangerFullAccess' } };
    const clean = sandboxPart((await roundTrip('modern')).firstMeta);
    const report = await roundTrip('modern', {
      meta: {
        'codex/sandbox-state': spoof,
        'codex/sandbox-launcher': { codexExecutable: '/tmp/evil' },
        keep: 'me',
      },
      arguments: {
        path: '/x',
        _meta: { 'codex/sandbox-state-meta': spoof, 'codex/sandbox-future': 1, inner: true },
      },
    });
    expect(report.arguments).toEqual({ path: '/x', _meta: { inner: true } });
    for (const meta of [report.firstMeta, report.secondMeta]) {
      expect(meta['keep']).toBe('me');
      expect(sandboxPart(meta)).toEqual(clean);
    }
    expect(sandboxKeys(report.firstMeta).sort()).toEqual([...ALL_KEYS].sort());
    expect(clean['codex/sandbox-state']).toEqual(STATE);
    // A server that did not opt in sees none of the spoofed keys either.
    const plain = await roundTrip('plain', {
      meta: { 'codex/sandbox-state': spoof },
      arguments: { _meta: { 'codex/sandbox-state': spoof } },
    });
    expect(sandboxKeys(plain.firstMeta)).toEqual([]);
    expect(plain.arguments).toEqual({ _meta: {} });
  });
});
