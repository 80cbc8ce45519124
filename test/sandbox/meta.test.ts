/**
 * The sandbox `_meta` contract against real fixture servers (stdio, HTTP on 127.0.0.1, stdio in
 * an exec environment): which servers get the state keys, which also get the launcher, that the
 * state is the host's value exactly and the one current when the call was issued, and that
 * `codex/sandbox-*` keys from a client or the model never reach a server.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { q, shExecEnvironment, tempDir } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import type { Capability } from './helpers.js';
import {
  assertBubblewrapWorks,
  metaServer,
  received,
  receivedMeta,
  sandboxKeys,
  startHttpMetaServer,
} from './helpers.js';

const load = useRuntimes();

/** A state with fields no launcher knows, nested, in a deliberate key order. */
const STATE = {
  zFirst: 'unknown top-level field, kept first',
  sandboxPolicy: {
    type: 'readOnly',
    networkAccess: false,
    futureField: { nested: [1, { b: 2, a: 1 }, null, 'x'] },
  },
  sandboxCwd: '/tmp',
  codexLinuxSandboxExe: null,
};

const STATE_KEYS = ['codex/sandbox-state', 'codex/sandbox-state-meta'];
const ALL_KEYS = [...STATE_KEYS, 'codex/sandbox-launcher'];

async function metaOf(capability: Capability, ...state: [unknown?]) {
  const runtime = load(metaServer('mcp_servers.srv', capability));
  const session = runtime.startSession({ sandboxState: state.length > 0 ? state[0] : STATE });
  return receivedMeta(await session.callTool({ server: 'srv', tool: 'meta' }));
}

function expectExactState(meta: Record<string, unknown> | undefined, state: unknown): void {
  for (const key of STATE_KEYS) {
    expect(meta?.[key], key).toStrictEqual(state);
    expect(JSON.stringify(meta?.[key]), `${key} key order`).toBe(JSON.stringify(state));
  }
}

beforeAll(() => assertBubblewrapWorks());

describe('which servers receive the sandbox keys', () => {
  it('advertises codex/sandbox-state → both state keys and a verified launcher', async () => {
    const meta = await metaOf('current');
    expect(sandboxKeys(meta).sort()).toEqual([...ALL_KEYS].sort());
    expectExactState(meta, STATE);
    const launcher = meta?.['codex/sandbox-launcher'] as { codexExecutable: string };
    expect(Object.keys(launcher)).toEqual(['codexExecutable']);
    expect(isAbsolute(launcher.codexExecutable)).toBe(true);
    expect(statSync(launcher.codexExecutable).mode & 0o111).not.toBe(0);

    // It really is a launcher: the default one is mcprt itself, enforcing a read-only state.
    const dir = tempDir('mcprt-launcher-check-');
    const run = spawnSync(
      launcher.codexExecutable,
      [
        'sandbox',
        '--sandbox-state-json',
        JSON.stringify({ sandboxPolicy: { type: 'readOnly' }, sandboxCwd: dir }),
        '--',
        'sh',
        '-c',
        'pwd; touch written',
      ],
      { encoding: 'utf8' },
    );
    expect(run.stdout.trim()).toBe(dir);
    expect(run.status).not.toBe(0);
    expect(existsSync(join(dir, 'written'))).toBe(false);
  });

  it('advertises only the deprecated codex/sandbox-state-meta → the same keys', async () => {
    const meta = await metaOf('deprecated');
    expect(sandboxKeys(meta).sort()).toEqual([...ALL_KEYS].sort());
    expectExactState(meta, STATE);
  });

  it('advertises both → the same keys, once each', async () => {
    const meta = await metaOf('both');
    expect(sandboxKeys(meta).sort()).toEqual([...ALL_KEYS].sort());
    expectExactState(meta, STATE);
  });

  it('advertises nothing → no sandbox keys at all', async () => {
    const meta = await metaOf('none');
    expect(sandboxKeys(meta)).toEqual([]);
  });

  describe('HTTP', () => {
    let http: Awaited<ReturnType<typeof startHttpMetaServer>>;
    beforeAll(async () => {
      http = await startHttpMetaServer('current');
    });
    afterAll(() => {
      http.child.kill();
    });

    it('an HTTP server on 127.0.0.1 advertising it → both state keys, no launcher', async () => {
      const runtime = load(`[mcp_servers.web]\nurl = ${q(http.url)}\n`);
      const session = runtime.startSession({ sandboxState: STATE });
      const meta = receivedMeta(await session.callTool({ server: 'web', tool: 'meta' }));
      expect(sandboxKeys(meta).sort()).toEqual([...STATE_KEYS].sort());
      expectExactState(meta, STATE);
    });
  });

  it('a stdio server in an exec environment → both state keys, no launcher', async () => {
    const cwd = tempDir();
    const runtime = load(
      shExecEnvironment('box', cwd) + metaServer('environments.box.mcp_servers.srv', 'current'),
    );
    const session = runtime.startSession({ sandboxState: STATE });
    const meta = receivedMeta(
      await session.callTool({ server: 'srv', environmentId: 'box', tool: 'meta' }),
    );
    expect(sandboxKeys(meta).sort()).toEqual([...STATE_KEYS].sort());
    expectExactState(meta, STATE);
  });

  it('a thread-wide stdio server executing in an exec environment gets no launcher either', async () => {
    const cwd = tempDir();
    const runtime = load(
      shExecEnvironment('box', cwd) +
        metaServer('mcp_servers.srv', 'current') +
        'environment_id = "box"\n',
    );
    const session = runtime.startSession({ sandboxState: STATE });
    const meta = receivedMeta(await session.callTool({ server: 'srv', tool: 'meta' }));
    expect(sandboxKeys(meta).sort()).toEqual([...STATE_KEYS].sort());
  });

  it('a thread without a sandbox state sends no sandbox keys, even to a server that opted in', async () => {
    expect(sandboxKeys(await metaOf('current', undefined))).toEqual([]);
    expect(sandboxKeys(await metaOf('current', null))).toEqual([]);
  });
});

describe('authority comes only from the thread', () => {
  const SPOOF = { sandboxPolicy: { type: 'dangerFullAccess' } };

  it('a client _meta spoofing codex/sandbox-state is replaced by the thread state', async () => {
    const runtime = load(metaServer('mcp_servers.srv', 'current'));
    const session = runtime.startSession({ sandboxState: STATE });
    const result = await session.callTool({
      server: 'srv',
      tool: 'meta',
      meta: {
        'codex/sandbox-state': SPOOF,
        'codex/sandbox-state-meta': SPOOF,
        'codex/sandbox-launcher': { codexExecutable: '/bin/sh' },
        'codex/sandbox-anything': 1,
        keep: 'me',
      },
      arguments: { _meta: { 'codex/sandbox-state': SPOOF, other: 2 }, x: 1 },
    });
    const meta = receivedMeta(result);
    expectExactState(meta, STATE);
    expect(sandboxKeys(meta).sort()).toEqual([...ALL_KEYS].sort());
    expect(
      (meta?.['codex/sandbox-launcher'] as { codexExecutable: string }).codexExecutable,
    ).not.toBe('/bin/sh');
    expect(meta?.['keep']).toBe('me');
    // Model-supplied arguments are not authority either: their `_meta` loses the sandbox keys.
    expect(received(result).params['arguments']).toEqual({ _meta: { other: 2 }, x: 1 });
  });

  it('a server that did not opt in never sees spoofed sandbox keys', async () => {
    const runtime = load(metaServer('mcp_servers.srv', 'none'));
    const session = runtime.startSession({ sandboxState: STATE });
    const result = await session.callTool({
      server: 'srv',
      tool: 'meta',
      meta: { 'codex/sandbox-state': SPOOF, other: true },
      arguments: { _meta: { 'codex/sandbox-launcher': { codexExecutable: '/bin/sh' } } },
    });
    expect(sandboxKeys(receivedMeta(result))).toEqual([]);
    expect(receivedMeta(result)?.['other']).toBe(true);
    expect(received(result).params['arguments']).toEqual({ _meta: {} });
  });

  it('a thread without state still strips spoofed keys', async () => {
    const runtime = load(metaServer('mcp_servers.srv', 'current'));
    const session = runtime.startSession();
    const result = await session.callTool({
      server: 'srv',
      tool: 'meta',
      meta: { 'codex/sandbox-state': SPOOF },
    });
    expect(sandboxKeys(receivedMeta(result))).toEqual([]);
  });
});

describe('the state of the issuing call', () => {
  it('each call carries the thread state current when it was issued', async () => {
    const runtime = load(metaServer('mcp_servers.srv', 'current'));
    const session = runtime.startSession({ sandboxState: STATE, lazy: true });
    const next = { sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/srv'] } };
    // Issued before the change (the server is still starting): keeps the old state.
    const first = session.callTool({ server: 'srv', tool: 'meta' });
    session.setSandboxState(next);
    expect(session.sandboxState).toBe(next);
    const second = session.callTool({ server: 'srv', tool: 'meta' });
    expectExactState(receivedMeta(await first), STATE);
    expectExactState(receivedMeta(await second), next);
    session.setSandboxState(null);
    expect(
      sandboxKeys(receivedMeta(await session.callTool({ server: 'srv', tool: 'meta' }))),
    ).toEqual([]);
  });
});
