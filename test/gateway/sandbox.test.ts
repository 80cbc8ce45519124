/**
 * The sandbox contract through `mcprt serve`, with the raw SDK client as the host: the state a
 * call's `_meta` carries reaches every opted-in server behind the gateway as the same JSON text
 * under both keys (key order included); the client's launcher reaches only local stdio servers,
 * and only after it passed the probe; any other `codex/sandbox-*` key, and anything in the
 * arguments' `_meta`, is stripped; a server that did not opt in sees nothing; without state
 * from the client the gateway's configured state applies. Servers here print the request line
 * they received, so the test reads `_meta` as it was on the wire.
 */

import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeHome, NODE, q, shExecEnvironment, tempDir } from '../helpers/fixtures.js';
import {
  assertBubblewrapWorks,
  CLI,
  META_SERVER,
  startHttpMetaServer,
} from '../sandbox/helpers.js';
import type { Era, GatewayClient } from './helpers.js';
import { stdioGateway, stdioServer, texts } from './helpers.js';

/** A state whose key order no re-serialization would keep by accident. */
const STATE = {
  zeta: { '': [1, { y: null, x: 'é' }] },
  sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/w'], networkAccess: false },
  alpha: true,
  sandboxCwd: '/w',
};
const STATE_TEXT = JSON.stringify(STATE);
const CONFIGURED = { sandboxPolicy: { type: 'readOnly' }, configured: true };

let home: string;
let good: string;
let bad: string;
let stopHttp: () => void;

/** An executable script in a fresh directory. */
function script(name: string, body: string): string {
  const path = join(tempDir('mcprt-gw-launcher-'), name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  assertBubblewrapWorks();
  good = script('codex', `exec ${q(NODE)} ${q(CLI)} "$@"`);
  bad = script('not-a-launcher', 'exit 1');
  const http = await startHttpMetaServer('deprecated');
  stopHttp = () => http.child.kill();
  home = makeHome(
    stdioServer('mcp_servers.srv', META_SERVER, ['--capability', 'both']) +
      stdioServer('mcp_servers.plain', META_SERVER, ['--capability', 'none']) +
      `[mcp_servers.web]\nurl = ${q(http.url)}\n` +
      shExecEnvironment('a', tempDir()) +
      stdioServer('environments.a.mcp_servers.srv', META_SERVER, ['--capability', 'current']),
  );
});
afterAll(() => stopHttp?.());

/** The request line a server received for one `meta` call through the gateway. */
async function line(
  gateway: GatewayClient,
  tool: string,
  meta?: Record<string, unknown>,
  args?: Record<string, unknown>,
): Promise<string> {
  const result = await gateway.client.callTool({
    name: tool,
    ...(args ? { arguments: args } : {}),
    ...(meta ? { _meta: meta } : {}),
  });
  return texts(result)[0]!;
}

const metaOf = (text: string) =>
  (JSON.parse(text) as { params: { _meta?: Record<string, unknown> } }).params._meta ?? {};
const sandboxKeys = (text: string) =>
  Object.keys(metaOf(text)).filter((k) => k.startsWith('codex/sandbox-'));

describe.each<Era>(['legacy', 'auto'])('the client’s authority, %s era', (era) => {
  let gateway: GatewayClient;
  beforeAll(async () => {
    gateway = await stdioGateway(home, era);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const spoof = {
    'codex/sandbox-state': 'SPOOF',
    'codex/sandbox-launcher': { codexExecutable: '/evil' },
  };

  it('reaches opted-in servers byte for byte under both keys; the launcher only local stdio, after its probe', async () => {
    const meta = {
      keep: 'me',
      'codex/sandbox-state': STATE,
      'codex/sandbox-launcher': { codexExecutable: good },
      'codex/sandbox-evil': 'x',
    };
    const local = await line(gateway, 'srv__meta', meta, { _meta: spoof });
    expect(local).toContain(`"codex/sandbox-state":${STATE_TEXT}`);
    expect(local).toContain(`"codex/sandbox-state-meta":${STATE_TEXT}`);
    expect(metaOf(local)['codex/sandbox-launcher']).toEqual({ codexExecutable: good });
    expect(sandboxKeys(local).sort()).toEqual([
      'codex/sandbox-launcher',
      'codex/sandbox-state',
      'codex/sandbox-state-meta',
    ]);
    expect(metaOf(local)['keep']).toBe('me');
    // Tool arguments carry no authority: their `_meta` lost every codex/sandbox-* key.
    expect((JSON.parse(local) as { params: { arguments: unknown } }).params.arguments).toEqual({
      _meta: {},
    });

    for (const remote of ['a__srv__meta', 'web__meta']) {
      const text = await line(gateway, remote, meta, { _meta: spoof });
      expect(text, remote).toContain(`"codex/sandbox-state":${STATE_TEXT}`);
      expect(text, remote).toContain(`"codex/sandbox-state-meta":${STATE_TEXT}`);
      expect(sandboxKeys(text), remote).not.toContain('codex/sandbox-launcher');
      expect(text, remote).not.toContain('SPOOF');
      expect(text, remote).not.toContain('/evil');
    }

    const plain = await line(gateway, 'plain__meta', meta, { _meta: spoof });
    expect(sandboxKeys(plain)).toEqual([]);
    expect(plain).not.toContain('SPOOF');
  });

  it('sends no launcher when the client’s launcher fails the probe (and no other one instead)', async () => {
    const text = await line(gateway, 'srv__meta', {
      'codex/sandbox-state': STATE,
      'codex/sandbox-launcher': { codexExecutable: bad },
    });
    expect(text).toContain(`"codex/sandbox-state":${STATE_TEXT}`);
    expect(sandboxKeys(text)).not.toContain('codex/sandbox-launcher');
  });

  it('without a state from the client (and none configured) nothing is sent, spoofs included', async () => {
    // Authority needs a state: a launcher or any other codex/sandbox-* key alone is dropped.
    const text = await line(
      gateway,
      'srv__meta',
      { 'codex/sandbox-launcher': { codexExecutable: good }, 'codex/sandbox-other': 'SPOOF' },
      { _meta: spoof },
    );
    expect(sandboxKeys(text)).toEqual([]);
    expect(text).not.toContain('SPOOF');
    expect(text).not.toContain('/evil');
    expect(text).not.toContain(good);
  });
});

describe('the configured state', () => {
  it('applies to calls whose client sends none; a client state still wins for its call', async () => {
    const gateway = await stdioGateway(home, 'legacy', [
      '--sandbox-state-json',
      JSON.stringify(CONFIGURED),
    ]);
    try {
      const configured = await line(gateway, 'srv__meta', { other: 1 });
      expect(configured).toContain(`"codex/sandbox-state":${JSON.stringify(CONFIGURED)}`);
      expect(configured).toContain(`"codex/sandbox-state-meta":${JSON.stringify(CONFIGURED)}`);
      // The configured launcher setting (none in config: mcprt's own) applies with it.
      const launcher = metaOf(configured)['codex/sandbox-launcher'] as { codexExecutable: string };
      expect(launcher.codexExecutable).toMatch(/mcprt-launcher-[^/]+\/mcprt$/);

      const fromClient = await line(gateway, 'srv__meta', { 'codex/sandbox-state': STATE });
      expect(fromClient).toContain(`"codex/sandbox-state":${STATE_TEXT}`);
      expect(fromClient).not.toContain('"configured":true');
    } finally {
      await gateway.close();
    }
  });

  it('a bad --sandbox-state-json is a usage error naming the flag', async () => {
    await expect(stdioGateway(home, 'legacy', ['--sandbox-state-json', '{nope'])).rejects.toThrow();
  });
});
