// Protocol revisions × environments × transports, with real processes: a 2026-only server (stdio
// and streamable HTTP), a 2025-only server and a dual-era server in `local`, in an exec
// environment (`sh -c`, HTTP direct) and in an ssh environment (a real sshd on 127.0.0.1; its
// HTTP reached through the tunnel) all connect, list, call, read a resource, elicit (an
// input-required round on 2026, `elicitation/create` on 2025) and report their revision; a 2026
// and a 2025 server share a name across two environments of one thread. Everything starts once
// (one sshd, one HTTP server, one session) and the registrations are exercised in parallel.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Runtime, Session } from '@mcprt/runtime';
import { Runtime as RuntimeClass } from '@mcprt/runtime';

import {
  arr,
  echoServer,
  FIXTURES,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  text,
} from '../helpers/fixtures.js';
import { Sshd } from '../helpers/sshd.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const ENVS = [null, 'box', 'remote'] as const;
type Env = (typeof ENVS)[number];
const tag = (env: Env) => env ?? 'local';
const table = (env: Env, name: string) =>
  env === null ? `mcp_servers.${name}` : `environments.${env}.mcp_servers.${name}`;
const modern = (env: Env, name: string, legacy = 'reject', flags: string[] = []) =>
  `[${table(env, name)}]\ncommand = ${q(NODE)}\nargs = ${arr([MODERN, '--name', `${name}-${tag(env)}`, '--legacy', legacy, ...flags])}\nstartup_timeout_sec = 30\n`;
/** The thread's sandbox state (only the remote m26 advertises `codex/sandbox-state`). */
const STATE = { sandboxPolicy: { type: 'readOnly' }, zLast: [{ b: 1, a: 2 }] };

let sshd: Sshd;
let http: ChildProcess;
let runtime: Runtime;
let session: Session;

beforeAll(async () => {
  http = spawn(NODE, [MODERN, '--transport', 'http', '--name', 'web26'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [port] = await Promise.all([
    new Promise<string>((resolve) =>
      http.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    ),
    Sshd.start([{ home: tempDir('mcprt-ssh-home-') }]).then((s) => (sshd = s)),
  ]);
  const servers = ENVS.map(
    (env) =>
      modern(env, 'm26', 'reject', env === 'remote' ? ['--sandbox'] : []) +
      modern(env, 'dual', 'serve') +
      echoServer(table(env, 'old'), `old-${tag(env)}`) +
      `[${table(env, 'w26')}]\nurl = "http://127.0.0.1:${port}/mcp"\nstartup_timeout_sec = 30\n`,
  ).join('');
  runtime = RuntimeClass.load({
    home: makeHome(
      shExecEnvironment('box', tempDir(), 'http = "direct"') +
        sshd.environmentToml('remote', 0, { cwd: tempDir() }) +
        servers +
        // One name, two environments, two revisions.
        modern('box', 'shared') +
        echoServer(table('remote', 'shared'), 'shared-remote'),
    ),
    processEnv: process.env,
  });
  session = runtime.startSession({
    cwd: tempDir(),
    sandboxState: STATE,
    onElicitation: async (request) => ({
      action: 'accept',
      content:
        request.message === 'Proceed?' || request.message.endsWith('wants an answer')
          ? { who: `host for ${request.serverName}@${tag(request.environmentId as Env)}` }
          : { answer: `host for ${request.serverName}@${tag(request.environmentId as Env)}` },
    }),
  });
  expect((await session.ready()).failed).toEqual([]);
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  http?.kill();
  await sshd?.close();
});

describe('revisions across environments and transports', () => {
  it('every registration connects and reports its negotiated revision', () => {
    const rows = session
      .listStatus()
      .map((s) =>
        [
          s.name,
          tag(s.environmentId as Env),
          s.transport,
          s.connectionStatus,
          s.protocolVersion,
        ].join(' '),
      )
      .sort();
    expect(rows).toEqual(
      [
        ...ENVS.flatMap((env) => [
          `m26 ${tag(env)} stdio connected 2026-07-28`,
          `dual ${tag(env)} stdio connected 2026-07-28`,
          `old ${tag(env)} stdio connected 2025-11-25`,
          `w26 ${tag(env)} streamable_http connected 2026-07-28`,
        ]),
        'shared box stdio connected 2026-07-28',
        'shared remote stdio connected 2025-11-25',
      ].sort(),
    );
    expect(session.status('m26', 'remote').executionEnvironmentId).toBe('remote');
  });

  it('2026 servers list, call, read a resource and take an input-required round everywhere', async () => {
    await Promise.all(
      ENVS.flatMap((env) => ['m26', 'w26', 'dual'].map((name) => exercise2026(name, env))),
    );
  });

  it('2025-only servers list, call, read a resource and elicit everywhere', async () => {
    await Promise.all(
      ENVS.map(async (env) => {
        const where = { server: 'old', ...(env ? { environmentId: env } : {}) };
        const status = session.status('old', env);
        expect(status.tools.map((t) => t.name)).toContain('ask');
        expect(status.resources.map((r) => r.uri)).toEqual(['fixture://greeting']);
        expect(
          text(await session.callTool({ ...where, tool: 'echo', arguments: { message: 'x' } })),
        ).toBe(`old-${tag(env)}: x`);
        const read = await session.readResource({ ...where, uri: 'fixture://greeting' });
        expect(read.contents).toEqual([
          { uri: 'fixture://greeting', text: `hello from old-${tag(env)}` },
        ]);
        expect(JSON.parse(text(await session.callTool({ ...where, tool: 'ask' })))).toEqual({
          action: 'accept',
          content: { answer: `host for old@${tag(env)}`, count: 7 },
        });
      }),
    );
  });

  it('a 2026 server and a 2025 server named alike in two environments are both listed and callable', async () => {
    const shared = session.listStatus({ serverName: 'shared' });
    expect(shared.map((s) => [s.environmentId, s.protocolVersion])).toEqual([
      ['box', '2026-07-28'],
      ['remote', '2025-11-25'],
    ]);
    const models = session
      .tools()
      .filter((t) => t.scope.name === 'shared' && t.tool.name === 'echo')
      .map((t) => t.modelName);
    expect(new Set(models).size).toBe(2);
    const echo = (environmentId?: string) =>
      session
        .callTool({
          server: 'shared',
          tool: 'echo',
          arguments: { message: 'hi' },
          ...(environmentId ? { environmentId } : {}),
        })
        .then(text);
    expect(await Promise.all([echo('box'), echo('remote')])).toEqual([
      'shared-box: hi',
      'shared-remote: hi',
    ]);
    // No environmentId: the first environment of the thread that has the name.
    expect(await echo()).toBe('shared-box: hi');
    const [box, remote] = await Promise.all([
      session.callTool({ server: 'shared', environmentId: 'box', tool: 'confirm' }),
      session.callTool({ server: 'shared', environmentId: 'remote', tool: 'ask' }),
    ]);
    expect(text(box)).toBe('accepted {"who":"host for shared@box","ok":true}; state intact');
    expect(JSON.parse(text(remote))).toEqual({
      action: 'accept',
      content: { answer: 'host for shared@remote', count: 7 },
    });
  });

  it('a 2026 server over ssh that opted in gets both state keys, no launcher, on both legs of a round', async () => {
    const result = await session.callTool({
      server: 'm26',
      environmentId: 'remote',
      tool: 'round_trip',
    });
    const report = JSON.parse(text(result)) as Record<string, Record<string, unknown>>;
    const sandbox = (meta: Record<string, unknown> | undefined) =>
      Object.fromEntries(
        Object.entries(meta ?? {}).filter(([k]) => k.startsWith('codex/sandbox-')),
      );
    const expected = { 'codex/sandbox-state': STATE, 'codex/sandbox-state-meta': STATE };
    expect(sandbox(report['firstMeta'])).toEqual(expected);
    expect(sandbox(report['secondMeta'])).toEqual(expected);
    expect(report['response']).toEqual({
      action: 'accept',
      content: { who: 'host for m26@remote', note: 'none' },
    });
    // A server that did not opt in (the same fixture in the exec environment) gets none.
    const box = await session.callTool({ server: 'm26', environmentId: 'box', tool: 'round_trip' });
    expect(sandbox(JSON.parse(text(box)).firstMeta as Record<string, unknown>)).toEqual({});
  });
});

/** List, call, read and one input-required round on one 2026 registration. */
async function exercise2026(name: string, env: Env): Promise<void> {
  const label = `${name}@${tag(env)}`;
  const where = { server: name, ...(env ? { environmentId: env } : {}) };
  const prefix = name === 'w26' ? 'web26' : `${name}-${tag(env)}`;
  const status = session.status(name, env);
  expect(status.tools.map((t) => t.name).sort(), label).toEqual(
    [
      'add_tool',
      'calls',
      'confirm',
      'drop_listen',
      'echo',
      'nag',
      'nag_legs',
      'rich',
      'round_trip',
      'skill_reads',
    ].sort(),
  );
  expect(
    status.resources.map((r) => r.uri),
    label,
  ).toContain('modern://greeting');
  const live = await session.listResources({ ...where });
  expect(live.errors, label).toEqual([]);
  expect(
    live.data[0]?.items.map((r) => r.uri),
    label,
  ).toContain('modern://greeting');
  expect(
    text(await session.callTool({ ...where, tool: 'echo', arguments: { message: 'x' } })),
    label,
  ).toBe(`${prefix}: x`);
  const read = await session.readResource({ ...where, uri: 'modern://greeting' });
  expect(read.contents, label).toEqual([
    { uri: 'modern://greeting', text: `hello from ${prefix}` },
  ]);
  expect(text(await session.callTool({ ...where, tool: 'confirm' })), label).toBe(
    `accepted {"who":"host for ${label}","ok":true}; state intact`,
  );
}
